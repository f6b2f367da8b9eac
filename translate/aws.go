package translate

import (
	"strings"

	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// awsHosts are the AWS API host suffixes, global and China partitions.
var awsHosts = []string{".amazonaws.com", ".amazonaws.com.cn"}

// awsRecognizes claims a response of unknown host that carries an AWS request
// id or error-type header, or a body only AWS writes (see awsBodyShape).
func awsRecognizes(r *Raw) bool {
	h := r.Header
	if h != nil {
		for _, name := range [...]string{"X-Amzn-Requestid", "X-Amz-Request-Id", "X-Amz-Id-2", "X-Amzn-Errortype", "X-Amz-Apigw-Id"} {
			if canonheader.Value(h, name) != "" {
				return true
			}
		}
	}
	return awsBodyShape(r)
}

// awsTranslate reads Amazon Web Services errors in every protocol AWS
// speaks: JSON (`__type` and X-Amzn-ErrorType, DynamoDB, Lambda, API
// Gateway), Query/XML (<ErrorResponse>: IAM, STS, SQS, SNS), EC2
// (<Response><Errors>) and S3 (<Error>, also on a 200).
//
// It reads the error code, message, request id and the offending
// field. An XML error body is an error whatever the status (S3 answers some
// failed copies with 200). A failure without an AWS code is still read when
// the response is plainly AWS's (its host, the caller's word, an API
// Gateway or S3 header), so the status decides under the AWS name;
// otherwise ok is false and the generic translators read it.
func awsTranslate(r *Raw) (classify.Outcome, bool) {
	var o classify.Outcome
	found := false
	if r.IsXML() {
		found = awsParseXML(r.Body, &o)
	}
	if r.Status < 400 {
		if !found {
			return classify.Outcome{}, false
		}
	} else if !found {
		found = awsParseJSON(r, &o)
	}
	if !found && !awsPlainlyAWS(r) {
		return classify.Outcome{}, false
	}
	if o.RequestID == "" && r.Header != nil {
		o.RequestID = awsHeader(r, "X-Amzn-Requestid", "X-Amz-Request-Id")
	}
	if o.Field == "" {
		o.Field = awsFieldFromMessage(o.Message)
	}
	return o, true
}

// awsPlainlyAWS reports whether r is AWS's even without an AWS error code:
// its host or the caller says so, S3's x-amz-id-2 or an X-Amzn-ErrorType
// is present, or API Gateway's x-amz-apigw-id comes with a body of API
// Gateway's own shape (a service behind API Gateway answers with that
// header too, in its own format, which the generic translators read).
func awsPlainlyAWS(r *Raw) bool {
	if r.Status < 400 {
		return false
	}
	if r.Vendor == "aws" || awsHostIn(r.Host, awsHosts) {
		return true
	}
	h := r.Header
	if h == nil {
		return false
	}
	if canonheader.Value(h, "X-Amz-Id-2") != "" || canonheader.Value(h, "X-Amzn-Errortype") != "" {
		return true
	}
	return canonheader.Value(h, "X-Amz-Apigw-Id") != "" && awsGatewayShaped(r)
}

// awsGatewayShaped reports whether b is empty or API Gateway's default
// error body, an object with a single message member.
func awsGatewayShaped(r *Raw) bool {
	if len(trimLeftSpace(r.Body)) == 0 {
		return true
	}
	m := r.object()
	if len(m) != 1 {
		return false
	}
	lower := m.has("message")
	upper := m.has("Message")
	return lower || upper
}

// awsHeader returns the first non-empty value among the named headers,
// trimmed and bounded. The names are canonical (see headerValue).
func awsHeader(r *Raw, names ...string) string {
	for _, n := range names {
		if v := clipText(canonheader.Value(r.Header, n)); v != "" {
			return v
		}
	}
	return ""
}

// awsCleanCode reduces an AWS error type to its code. The smithy AWS
// protocols (awsJson1_0, awsJson1_1, restJson1) write the type as a shape
// id, optionally with a URL suffix, in the X-Amzn-Errortype header, the
// `__type` member or the `code` member; every SDK sanitizes it the same
// way: cut at the first ':' ("FooError:http://internal.amazon.com/coral/…"),
// then keep what follows the first '#' ("aws.protocoltests.restjson#FooError").
// See aws-sdk-go-v2 aws/protocol/restjson SanitizeErrorCode and
// smithy-rs aws_smithy_schema::error_envelope::sanitize_error_code. A value
// with spaces or longer than 128 bytes is not a code.
func awsCleanCode(s string) string {
	if i := strings.IndexByte(s, ':'); i >= 0 {
		s = s[:i]
	}
	if i := strings.IndexByte(s, '#'); i >= 0 {
		s = s[i+1:]
	}
	s = strings.TrimSpace(s)
	if len(s) > 128 || strings.ContainsAny(s, " \t\r\n") {
		return ""
	}
	return s
}

// awsFieldFromMessage reads the offending parameter from the documented
// forms of AWS validation messages: "Value null at 'tableName' failed to
// satisfy constraint", "Value (x) for parameter groupId is invalid", "The
// request must contain the parameter InstanceId". "" when none matches.
func awsFieldFromMessage(msg string) string {
	if msg == "" {
		return ""
	}
	if i := strings.Index(msg, "' failed to satisfy constraint"); i > 0 {
		if j := strings.LastIndex(msg[:i], " at '"); j >= 0 {
			if f := msg[j+len(" at '") : i]; awsFieldToken(f) == f {
				return f
			}
		}
	}
	for _, lead := range [...]string{"for parameter ", "the parameter "} {
		if i := strings.Index(msg, lead); i >= 0 {
			if f := awsFieldToken(msg[i+len(lead):]); f != "" {
				return f
			}
		}
	}
	return ""
}

// awsFieldToken returns the parameter name that s starts with: letters,
// digits and . _ - [ ] up to 128 bytes; "" when s starts otherwise.
func awsFieldToken(s string) string {
	n := 0
	for n < len(s) && n < 128 {
		c := s[n]
		if !(isLetter(c) || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-' || c == '[' || c == ']') {
			break
		}
		n++
	}
	return strings.TrimRight(s[:n], ".")
}

// awsHostIn reports whether host equals one of suffixes (leading dot
// ignored) or ends with it after a dot.
func awsHostIn(host string, suffixes []string) bool {
	if host == "" {
		return false
	}
	for _, s := range suffixes {
		s = strings.TrimPrefix(s, ".")
		if host == s || strings.HasSuffix(host, "."+s) {
			return true
		}
	}
	return false
}
