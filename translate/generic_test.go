package translate

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// genericRaw builds a JSON response for the generic tests.
func genericRaw(status int, body string) *Raw {
	return &Raw{Method: "GET", Status: status, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(body)}
}

// translateGeneric runs the generic translators as the Set does, first match
// wins.
func translateGeneric(t *testing.T, r *Raw) classify.Outcome {
	t.Helper()
	for _, g := range builtinGenerics()[1:] {
		if o, ok := g.Translate(r); ok {
			if o.Vendor == "" {
				o.Vendor = g.Vendor()
			}
			return o
		}
	}
	t.Fatalf("no generic translator read status %d", r.Status)
	return classify.Outcome{}
}

func TestGenericShapes(t *testing.T) {
	tests := []struct {
		name, body             string
		status                 int
		code, msg, field, vend string
	}{
		{"error object", `{"error":{"code":"bad_input","message":"m","param":"a.b"}}`, 400, "bad_input", "m", "a.b", ""},
		{"error object numeric code", `{"error":{"code":7001,"message":"m"}}`, 500, "7001", "m", "", ""},
		{"error object code repeats status", `{"error":{"code":404,"message":"m"}}`, 404, "", "m", "", ""},
		{"error object string status", `{"error":{"code":400,"message":"m","status":"INVALID_ARGUMENT"}}`, 400, "INVALID_ARGUMENT", "m", "", ""},
		{"error object type", `{"error":{"type":"invalid_request_error","code":null,"message":"m"}}`, 400, "invalid_request_error", "m", "", ""},
		{"error object details field", `{"error":{"code":"x","message":"m","details":[{"field":"email"}]}}`, 400, "x", "m", "email", ""},
		{"oauth registered", `{"error":"invalid_client","error_description":"d"}`, 401, "invalid_client", "d", "", "oauth2"},
		{"oauth-like unregistered", `{"error":"account_locked","error_description":"d"}`, 403, "account_locked", "d", "", ""},
		{"error prose", `{"statusCode":404,"error":"Not Found","message":"Cannot GET /x"}`, 404, "", "Cannot GET /x", "", ""},
		{"error prose alone", `{"error":"Something went wrong"}`, 500, "", "Something went wrong", "", ""},
		{"errors array", `{"errors":[{"message":"m","code":"c","field":"f"}]}`, 422, "c", "m", "f", ""},
		{"errors strings", `{"errors":["name is required"]}`, 422, "", "name is required", "", ""},
		{"top-level array", `[{"message":"m","errorCode":"INVALID_FIELD","fields":["Name"]}]`, 400, "INVALID_FIELD", "m", "", ""},
		{"rails", `{"errors":{"email":["is invalid"]}}`, 422, "", "email is invalid", "email", ""},
		{"rails string value", `{"errors":{"email":"email is invalid"}}`, 422, "", "email is invalid", "email", ""},
		{"message and code", `{"message":"m","code":"c","field":"x"}`, 409, "c", "m", "x", ""},
		{"message array", `{"message":["a","b"]}`, 400, "", "a", "", ""},
		{"detail string", `{"detail":"Not found."}`, 404, "", "Not found.", "", ""},
		{"fastapi", `{"detail":[{"loc":["query","limit"],"msg":"too big","type":"less_than_equal"}]}`, 422, "less_than_equal", "too big", "limit", ""},
		{"fastapi one part loc", `{"detail":[{"loc":["body"],"msg":"bad","type":"json_invalid"}]}`, 422, "json_invalid", "bad", "body", ""},
		{"spring", `{"status":500,"error":"Internal Server Error","message":"m","path":"/v1/x"}`, 500, "", "m", "", ""},
		{"problem", `{"type":"https://x.test/p","title":"T","status":409,"detail":"D","code":"E1"}`, 409, "E1", "D", "", ""},
		{"problem title only with status", `{"title":"T","status":409}`, 409, "", "T", "", ""},
		{"problem errors", `{"title":"T","type":"about:blank","errors":[{"detail":"must be set","pointer":"#/a"}]}`, 422, "", "must be set", "#/a", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			o := translateGeneric(t, genericRaw(tc.status, tc.body))
			assert.Equal(t, tc.code, o.VendorCode, "code")
			assert.Equal(t, tc.msg, o.Message, "message")
			assert.Equal(t, tc.field, o.Field, "field")
			assert.Equal(t, tc.vend, o.Vendor, "vendor")
		})
	}
}

func TestGenericWrongTypes(t *testing.T) {
	// Members of unexpected types are skipped: never a panic, always an
	// outcome for a failure.
	for _, body := range []string{
		`{"error":42}`, `{"error":null}`, `{"error":[]}`, `{"error":{"code":{"x":1},"message":["m"]}}`,
		`{"message":5}`, `{"errors":"x"}`, `{"errors":[]}`, `{"errors":[1,2]}`, `{"errors":{}}`,
		`{"errors":{"a":{"b":"c"}}}`, `{"detail":{}}`, `{"detail":[{"loc":[{"x":1}],"msg":"m"}]}`,
		`{"code":1.5}`, `{"code":-3}`, `{"code":"has spaces in it"}`, `{"retryable":"true"}`,
		`{"type":"a","title":"b","retry_after_ms":-5,"retryable":1}`, `{"title":"t","status":"409"}`,
		`[]`, `[1]`, `["x"]`, `{`, `{"a":`, `null`, `"str"`, `{}`, strings.Repeat("[", 20000),
		`{"error":{"error":{"error":{"error":{}}}}}`,
	} {
		r := genericRaw(500, body)
		assert.NotPanics(t, func() { translateGeneric(t, r) }, body)
	}
}

func TestGenericNumbersAndBounds(t *testing.T) {
	o := translateGeneric(t, genericRaw(500, `{"code":-3,"message":"m"}`))
	assert.Equal(t, "-3", o.VendorCode)
	o = translateGeneric(t, genericRaw(500, `{"code":1.5,"message":"m"}`))
	assert.Empty(t, o.VendorCode, "a fraction is no code")
	o = translateGeneric(t, genericRaw(500, `{"code":"`+strings.Repeat("A", jsonCodeMax+1)+`","message":"m"}`))
	assert.Empty(t, o.VendorCode, "an over-long code is prose")
	o = translateGeneric(t, genericRaw(500, `{"message":"`+strings.Repeat("é", 2000)+`"}`))
	assert.LessOrEqual(t, len(o.Message), jsonTextMax)
	assert.True(t, utf8.ValidString(o.Message))
	o = translateGeneric(t, genericRaw(400, `{"message":"m","field":"has a space"}`))
	assert.Empty(t, o.Field, "a field is a path, not prose")
}

func TestGenericToolerrBody(t *testing.T) {
	body := `{"type":"urn:toolerr:RATE_LIMITED","title":"Rate limited","status":429,"detail":"d","code":"RATE_LIMITED",` +
		`"category":"rate_limit","retryable":true,"retry_after_ms":1500,"field":"query","request_id":"req-1"}`
	o := translateGeneric(t, &Raw{Status: 429, Header: http.Header{"Content-Type": {"application/problem+json"}}, Body: []byte(body)})
	assert.Equal(t, "RATE_LIMITED", o.VendorCode)
	assert.Equal(t, classify.AdviceRetry, o.Evidence.Retry)
	assert.Equal(t, 1500*time.Millisecond, o.Delay)
	assert.Equal(t, "query", o.Field)
	assert.Equal(t, "req-1", o.RequestID)
	assert.Nil(t, o.Details, "a URN is no documentation link")

	o = translateGeneric(t, genericRaw(503, `{"code":"X","category":"transient","retryable":false,"retry_after_ms":"100"}`))
	assert.Equal(t, classify.AdviceDoNotRetry, o.Evidence.Retry)
	assert.Zero(t, o.Delay, "a delay written as a string is junk")
	o = translateGeneric(t, genericRaw(503, `{"type":"a","title":"b","retry_after_ms":-5}`))
	assert.Zero(t, o.Delay)
}

func TestGenericProblemMediaTypeWithoutObject(t *testing.T) {
	r := &Raw{Status: 400, Header: http.Header{"Content-Type": {"application/problem+json"}}, Body: []byte(`["x"]`)}
	_, ok := problemGenericTranslate(r)
	assert.False(t, ok)
	o := translateGeneric(t, r)
	assert.Empty(t, o.VendorCode)
}

func TestGenericSuccessIsNotAnError(t *testing.T) {
	bodies := []string{
		`{"error":{"code":"x","message":"m"}}`, `{"type":"a","title":"b","status":400}`, `{"error":"invalid_grant"}`,
		`{"message":"ok"}`, "plain text", "<html><title>Error</title></html>", "",
	}
	for _, g := range builtinGenerics()[1:] {
		for _, b := range bodies {
			for _, status := range []int{200, 201, 204, 304, 399} {
				_, ok := g.Translate(genericRaw(status, b))
				assert.False(t, ok, "%T reads a %d: %s", g, status, b)
			}
		}
	}
}

func TestGenericFallbackAcceptsEveryFailure(t *testing.T) {
	gs := builtinGenerics()[1:]
	last := gs[len(gs)-1]
	for status := 400; status <= 599; status++ {
		for _, body := range []string{"", "{", "\x00\xff", "<html>"} {
			_, ok := last.Translate(&Raw{Status: status, Header: http.Header{}, Body: []byte(body)})
			require.True(t, ok, "status %d body %q", status, body)
		}
	}
}

func TestGenericText(t *testing.T) {
	txt := &Vendor{Parse: textGenericTranslate}
	o, ok := txt.Translate(&Raw{Status: 502, Header: http.Header{"Content-Type": {"text/plain"}}, Body: []byte("\n\nBad gateway: upstream down\nline two")})
	require.True(t, ok)
	assert.Equal(t, "Bad gateway: upstream down", o.Message)

	o, _ = txt.Translate(&Raw{Status: 500, Header: http.Header{}, Body: []byte(strings.Repeat("x", 5000) + "\xff")})
	assert.LessOrEqual(t, len(o.Message), pageMessageMax)
	assert.True(t, utf8.ValidString(o.Message))

	o, _ = txt.Translate(&Raw{Status: 500, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte("<html><body><h1>Oops</h1></body></html>")})
	assert.Equal(t, "Oops", o.Message, "the first heading without a title")

	o, _ = txt.Translate(&Raw{Status: 409, Header: http.Header{"Content-Type": {"application/xml"}}, Body: []byte(`<?xml version="1.0"?><Error><Code>LeaseHeld</Code><Message>The lease is held.</Message></Error>`)})
	assert.Equal(t, "LeaseHeld", o.VendorCode)
	assert.Equal(t, "The lease is held.", o.Message)

	_, ok = txt.Translate(&Raw{Status: 500, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"unknown":"shape"}`)})
	assert.False(t, ok, "raw JSON is no message")
	_, ok = txt.Translate(&Raw{Status: 500, Header: http.Header{}, Body: []byte("  \n")})
	assert.False(t, ok, "an empty body is the fallback's")

	o = translateGeneric(t, &Raw{Status: 500, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"unknown":"shape"}`)})
	assert.Empty(t, o.Message)
}

func TestOAuthBearerChallenge(t *testing.T) {
	tests := []struct{ h, code, desc string }{
		{`Bearer realm="api", error="invalid_token", error_description="The access token expired"`, "invalid_token", "The access token expired"},
		{`Bearer error=insufficient_scope, scope="a b"`, "insufficient_scope", ""},
		{`bearer error="invalid_token`, "invalid_token", ""},
		{`Basic realm="x", error="invalid_token"`, "", ""},
		{`Bearer`, "", ""},
		{`Bearer realm`, "", ""},
		{``, "", ""},
		{`Bearer error="invalid_token", ` + strings.Repeat("x", 3000), "", ""},
	}
	for _, tc := range tests {
		code, desc := oauthBearerChallenge(tc.h)
		assert.Equal(t, tc.code, code, tc.h)
		assert.Equal(t, tc.desc, desc, tc.h)
	}
}

func TestOAuth(t *testing.T) {
	o := translateGeneric(t, genericRaw(400, `{"error":"invalid_grant","error_description":"expired","error_uri":"https://auth.test/errors#invalid_grant"}`))
	assert.Equal(t, "oauth2", o.Vendor)
	assert.Equal(t, "https://auth.test/errors#invalid_grant", o.Details["doc_url"])

	r := &Raw{Status: 401, Header: http.Header{"Www-Authenticate": {`Bearer error="invalid_token"`}}, Body: []byte(`{"message":"token expired","code":"E_TOKEN"}`)}
	o = translateGeneric(t, r)
	assert.Equal(t, "E_TOKEN", o.VendorCode, "a JSON body says more than the header")
	assert.Empty(t, o.Vendor)

	r.Body = nil
	o = translateGeneric(t, r)
	assert.Equal(t, "invalid_token", o.VendorCode)
	assert.Equal(t, "oauth2", o.Vendor)

	require.NoError(t, classify.New(nil).RegisterVendor("oauth2", oauthCodes))
}

func TestGenericThroughSet(t *testing.T) {
	s, err := NewSet(nil)
	require.NoError(t, err)
	e := s.Classify(context.Background(), &Raw{Method: "POST", Host: "auth.acme.test", Status: 400,
		Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"error":"invalid_grant","error_description":"expired"}`)})
	require.NotNil(t, e)
	assert.Equal(t, toolerr.CodeUnauthenticated, e.Code, "invalid_grant asks for new credentials, not new arguments")
	assert.False(t, e.Retryable)

	e = s.Classify(context.Background(), &Raw{Method: "GET", Host: "svc.acme.test", Status: 500,
		Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"error":{"code":"E_WEIRD","message":"?"}}`)})
	require.NotNil(t, e)
	assert.Equal(t, toolerr.CodeUpstreamUnclassified, e.Code)
	assert.False(t, e.Retryable)
	require.NotNil(t, e.Upstream)
	assert.Equal(t, "E_WEIRD", e.Upstream.Code)
}
