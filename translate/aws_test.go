package translate

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// awsRaw builds a Raw for the AWS tests.
func awsRaw(status int, host, contentType, body string, headers ...string) *Raw {
	h := http.Header{}
	if contentType != "" {
		h.Set("Content-Type", contentType)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		h.Set(headers[i], headers[i+1])
	}
	return &Raw{Method: http.MethodPost, Host: host, Status: status, Header: h, Body: []byte(body)}
}

// TestAWSCleanCode checks the reduction of namespaced and suffixed AWS error types.
func TestAWSCleanCode(t *testing.T) {
	cases := map[string]string{
		"com.amazonaws.dynamodb.v20120810#ResourceNotFoundException":                      "ResourceNotFoundException",
		"ValidationException:http://internal.amazon.com/coral/com.amazon.coral.validate/": "ValidationException",
		"aws.protocoltests#FooError:http://internal.amazon.com/":                          "FooError",
		"  Throttling ":          "Throttling",
		"":                       "",
		"two words":              "",
		"#":                      "",
		strings.Repeat("A", 129): "",
	}
	for in, want := range cases {
		assert.Equal(t, want, awsCleanCode(in), "%q", in)
	}
}

// TestAWSFieldFromMessage checks the parameter read from AWS validation messages.
func TestAWSFieldFromMessage(t *testing.T) {
	cases := map[string]string{
		"1 validation error detected: Value null at 'tableName' failed to satisfy constraint: Member must not be null": "tableName",
		"Value 'it's' at 'item.name' failed to satisfy constraint: x":                                                  "item.name",
		"Value (abc) for parameter groupId is invalid. Expected: 'sg-...'.":                                            "groupId",
		"The request must contain the parameter InstanceId.":                                                           "InstanceId",
		"Value ' at 'a b' failed to satisfy constraint":                                                                "",
		"Rate exceeded":  "",
		"":               "",
		"for parameter ": "",
	}
	for in, want := range cases {
		assert.Equal(t, want, awsFieldFromMessage(in), "%q", in)
	}
}

// TestAWSTranslateJSONEdgeCases feeds the JSON reader malformed, mistyped and oversized bodies.
func TestAWSTranslateJSONEdgeCases(t *testing.T) {
	tr := builtinNamed("aws")
	host := "dynamodb.us-east-1.amazonaws.com"

	// Malformed JSON from an AWS host: still AWS's, the status decides.
	o, ok := tr.Translate(awsRaw(400, host, "application/x-amz-json-1.0", `{"__type":`, "X-Amzn-Requestid", "R1"))
	require.True(t, ok)
	assert.Empty(t, o.VendorCode)
	assert.Equal(t, "R1", o.RequestID)

	// The same captured without a host and with only a request id: not
	// plainly AWS, left to the generic translators.
	_, ok = tr.Translate(awsRaw(400, "", "application/json", `{"error":{"code":"x"}}`, "X-Amzn-Requestid", "R1"))
	assert.False(t, ok)

	// Wrong member types spoil only themselves.
	o, ok = tr.Translate(awsRaw(400, host, "application/x-amz-json-1.1", `{"__type":5,"message":["x"],"Message":"kept","code":"ThrottlingException"}`))
	require.True(t, ok)
	assert.Equal(t, "ThrottlingException", o.VendorCode)
	assert.Equal(t, "kept", o.Message)

	// The header wins over the body.
	o, _ = tr.Translate(awsRaw(400, host, "application/json", `{"__type":"x#SerializationException"}`, "X-Amzn-Errortype", "ValidationException:http://x/"))
	assert.Equal(t, "ValidationException", o.VendorCode)

	// A huge message is cut.
	o, _ = tr.Translate(awsRaw(400, host, "application/json", `{"__type":"x#ValidationException","message":"`+strings.Repeat("é", 5000)+`"}`))
	assert.LessOrEqual(t, len(o.Message), jsonTextMax)

	// JSON on a 2xx is never an AWS error.
	_, ok = tr.Translate(awsRaw(200, host, "application/x-amz-json-1.0", `{"__type":"com.amazonaws.dynamodb#ValidationException","message":"x"}`))
	assert.False(t, ok)

	// An HTML body is not parsed as JSON.
	o, ok = tr.Translate(awsRaw(502, host, "text/html", `{"__type":"x#Throttling"}`))
	require.True(t, ok)
	assert.Empty(t, o.VendorCode)

	// Cancellation reasons of odd shapes do not panic.
	o, _ = tr.Translate(awsRaw(400, host, "application/json", `{"__type":"x#TransactionCanceledException","CancellationReasons":[1,{"Code":7},{"Code":"ThrottlingError"}]}`))
	assert.Equal(t, "None,None,ThrottlingError", o.Details["cancellation_reasons"])
}

// TestAWSTranslateXMLEdgeCases feeds the XML reader truncated, foreign, huge and deep documents.
func TestAWSTranslateXMLEdgeCases(t *testing.T) {
	tr := builtinNamed("aws")
	s3 := "b.s3.amazonaws.com"

	// An S3 <Error> without a code on a 200 is not an error.
	_, ok := tr.Translate(awsRaw(200, s3, "application/xml", `<Error><Message>x</Message></Error>`))
	assert.False(t, ok)

	// A success document on a 200 is not an error.
	_, ok = tr.Translate(awsRaw(200, s3, "application/xml", `<ListBucketResult><Name>b</Name></ListBucketResult>`))
	assert.False(t, ok)

	// A truncated error on a 200 is not read as an error.
	_, ok = tr.Translate(awsRaw(200, s3, "application/xml", `<Error><Code>InternalError</Code><Mess`))
	assert.False(t, ok)

	// Truncated on a 503 from S3: the status decides under the AWS name.
	o, ok := tr.Translate(awsRaw(503, s3, "application/xml", `<Error><Code>SlowDown</Code><Mess`))
	require.True(t, ok)
	assert.Empty(t, o.VendorCode)

	// An EC2 <Response> without errors is not an error.
	_, ok = tr.Translate(awsRaw(200, "ec2.amazonaws.com", "text/xml", `<Response><RequestID>1</RequestID></Response>`))
	assert.False(t, ok)

	// A huge body is capped before parsing and does not panic.
	huge := `<Error><Code>InternalError</Code><Message>` + strings.Repeat("x", 2*awsMaxXML) + `</Message></Error>`
	_, ok = tr.Translate(awsRaw(200, s3, "application/xml", huge))
	assert.False(t, ok)

	// Deep nesting is bounded by the cap and the decoder.
	deep := strings.Repeat("<a>", 20000) + strings.Repeat("</a>", 20000)
	_, ok = tr.Translate(awsRaw(200, s3, "application/xml", deep))
	assert.False(t, ok)

	// EC2: the first error of several.
	o, ok = tr.Translate(awsRaw(400, "ec2.amazonaws.com", "text/xml",
		`<Response><Errors><Error><Code>InvalidParameterValue</Code><Message>Value (x) for parameter instanceType is invalid.</Message></Error><Error><Code>Other</Code></Error></Errors><RequestID>r-1</RequestID></Response>`))
	require.True(t, ok)
	assert.Equal(t, "InvalidParameterValue", o.VendorCode)
	assert.Equal(t, "instanceType", o.Field)
	assert.Equal(t, "r-1", o.RequestID)

	// S3 wrong-region details.
	o, _ = tr.Translate(awsRaw(400, s3, "application/xml",
		`<Error><Code>AuthorizationHeaderMalformed</Code><Message>m</Message><Region>eu-west-1</Region><RequestId>q</RequestId><HostId>h</HostId></Error>`))
	assert.Equal(t, "eu-west-1", o.Details["region"])
	assert.Equal(t, "q", o.RequestID)
}

// TestAWSRecognizes checks which captured responses AWS claims, and which it leaves.
func TestAWSRecognizes(t *testing.T) {
	tr := builtinNamed("aws")
	assert.True(t, tr.Recognizes(awsRaw(400, "", "", "", "X-Amzn-Requestid", "abc")))
	assert.True(t, tr.Recognizes(awsRaw(404, "", "", "", "X-Amz-Request-Id", "abc")))
	assert.True(t, tr.Recognizes(awsRaw(400, "", "", `{"__type":"com.amazonaws.dynamodb.v20120810#ValidationException"}`)))
	assert.True(t, tr.Recognizes(awsRaw(400, "", "", `<ErrorResponse xmlns="https://iam.amazonaws.com/doc/2010-05-08/"><Error><Code>x</Code></Error></ErrorResponse>`)))
	assert.True(t, tr.Recognizes(awsRaw(400, "", "", `<Response><Errors><Error><Code>x</Code></Error></Errors></Response>`)))
	assert.True(t, tr.Recognizes(awsRaw(404, "", "", `<Error><Code>NoSuchKey</Code><HostId>h</HostId></Error>`)))

	// Other vendors' shapes are not claimed.
	assert.False(t, tr.Recognizes(awsRaw(400, "", "application/json", `{"error":{"type":"invalid_request_error"}}`, "Request-Id", "req_1")))
	assert.False(t, tr.Recognizes(awsRaw(404, "", "application/xml", `<Error><Code>ContainerNotFound</Code><Message>m</Message></Error>`)))
	assert.False(t, tr.Recognizes(awsRaw(400, "", "", `{"__type":"Foo:#Bar.Baz"}`)))
	assert.False(t, tr.Recognizes(awsRaw(502, "", "text/html", `<html>x</html>`, "X-Amz-Cf-Id", "cf")))
}

// TestAWSRecognizesBodyShapes checks the body shapes AWS claims without
// any AWS header (issue 14 §3), and the look-alikes it leaves to others.
func TestAWSRecognizesBodyShapes(t *testing.T) {
	tr := builtinNamed("aws")
	claimed := []string{
		`{"__type":"ResourceNotFoundException","message":"m"}`,
		`{"__type":"com.amazonaws.dynamodb.v20120810#ProvisionedThroughputExceededException:http://internal.amazon.com/coral/com.amazon.coral.availability/"}`,
		`{"code":"aws.protocoltests.restjson#FooError","message":"m"}`,
		`{"code":"ValidationException:http://internal.amazon.com/coral/com.amazon.coral.validate/"}`,
		`<ErrorResponse><Error><Type>Sender</Type><Code>Throttling</Code></Error></ErrorResponse>`,
		"<Response>\n <Errors>\n  <Error><Code>AuthFailure</Code></Error>\n </Errors>\n</Response>",
		`<Error><Code>NoSuchBucket</Code><RequestId>r</RequestId></Error>`,
	}
	for _, body := range claimed {
		assert.True(t, tr.Recognizes(awsRaw(400, "", "", body)), body)
	}
	left := []string{
		`{"code":"ResourceNotFoundException","message":"m"}`, // a bare code is anyone's
		`{"code":"not_found","message":"m"}`,
		`{"code":"a#b c"}`,
		`{"code":"Foo:bar"}`,
		`{"__type":"Person:#Contoso.Model"}`, // WCF
		`{"__type":"lower-case thing"}`,
		`{"__type":"Foo:bar"}`,
		`{"error":{"code":"x#Y"}}`,
		`<Error><Code>BlobNotFound</Code><Message>m</Message></Error>`, // Azure Storage
		`<Error><Code>NoSuchKey</Code><Message>m</Message><Details>d</Details></Error>`, // GCS XML
		`<html><Code>x</Code></html>`,
	}
	for _, body := range left {
		assert.False(t, tr.Recognizes(awsRaw(400, "", "", body)), body)
	}
	assert.False(t, tr.Recognizes(awsRaw(404, "", "application/xml", `<Error><Code>BlobNotFound</Code><RequestId>r</RequestId></Error>`, "X-Ms-Request-Id", "r")),
		"Azure's header wins over the shape")

	// Through a Set, a bare code stays with the generic translators.
	set, err := NewSet(nil)
	require.NoError(t, err)
	o, ok := set.Translate(awsRaw(404, "", "application/json", `{"code":"ResourceNotFoundException","message":"m"}`))
	require.True(t, ok)
	assert.NotEqual(t, "aws", o.Vendor)
}

// TestCloudCodesAreBuiltin checks every table of the group names a
// built-in code.
func TestCloudCodesAreBuiltin(t *testing.T) {
	reg := toolerr.Default()
	for _, tr := range []Translator{builtinNamed("aws"), builtinNamed("twilio"), builtinNamed("sendgrid")} {
		for vendorCode, code := range tr.Codes() {
			_, _, ok := reg.Kind(code)
			assert.True(t, ok, "%s: %s → %s", tr.Vendor(), vendorCode, code)
		}
	}
}

// TestCloudNoPanicOnPrefixes runs every prefix of some error bodies
// through the group's translators.
func TestCloudNoPanicOnPrefixes(t *testing.T) {
	bodies := []string{
		`{"__type":"com.amazonaws.dynamodb.v20120810#TransactionCanceledException","CancellationReasons":[{"Code":"None"}],"message":"m"}`,
		`<?xml version="1.0"?><ErrorResponse><Error><Type>Sender</Type><Code>Throttling</Code><Message>m</Message></Error><RequestId>r</RequestId></ErrorResponse>`,
		`<Response><Errors><Error><Code>c</Code><Message>m</Message></Error></Errors><RequestID>r</RequestID></Response>`,
		`{"code":20404,"message":"m","more_info":"https://www.twilio.com/docs/errors/20404","status":404}`,
		`<TwilioResponse><RestException><Code>20003</Code><Message>m</Message><MoreInfo>u</MoreInfo></RestException></TwilioResponse>`,
		`{"errors":[{"message":"m","field":"f","help":"http://sendgrid.com/docs"}]}`,
	}
	for _, tr := range []Translator{builtinNamed("aws"), builtinNamed("twilio"), builtinNamed("sendgrid")} {
		for _, body := range bodies {
			for i := 0; i <= len(body); i++ {
				for _, status := range []int{200, 400, 503} {
					r := awsRaw(status, "", "", body[:i])
					assert.NotPanics(t, func() {
						tr.Recognizes(r)
						tr.Translate(r)
					})
				}
			}
		}
	}
}

// TestAWSCapturedBehindAPIGateway separates API Gateway's own answers from those of services behind it.
func TestAWSCapturedBehindAPIGateway(t *testing.T) {
	tr := builtinNamed("aws")
	// API Gateway's own answer is AWS's.
	_, ok := tr.Translate(awsRaw(504, "", "application/json", `{"message": "Endpoint request timed out"}`, "X-Amz-Apigw-Id", "a", "X-Amzn-Requestid", "r"))
	assert.True(t, ok)
	// A service behind API Gateway answering in its own format is not.
	_, ok = tr.Translate(awsRaw(400, "", "application/json", `{"error":{"code":"invalid_x","message":"m"}}`, "X-Amz-Apigw-Id", "a", "X-Amzn-Requestid", "r"))
	assert.False(t, ok)
}

// TestAWSBareCodeOnlyOnAWSHosts checks that a body "code" member counts only on AWS hosts.
func TestAWSBareCodeOnlyOnAWSHosts(t *testing.T) {
	tr := builtinNamed("aws")
	o, ok := tr.Translate(awsRaw(400, "apigateway.us-east-1.amazonaws.com", "application/json", `{"code":"BadRequestException","message":"m"}`))
	require.True(t, ok)
	assert.Equal(t, "BadRequestException", o.VendorCode)
	_, ok = tr.Translate(awsRaw(400, "", "application/json", `{"code":"invalid_x","message":"m"}`, "X-Amzn-Requestid", "r"))
	assert.False(t, ok)
}
