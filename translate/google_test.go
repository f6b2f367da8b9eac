package translate

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// entOddBodies are bodies no enterprise translator may panic on.
var entOddBodies = []string{
	"", " ", "null", "[]", "{}", "[null]", "[[[]]]", `"error"`, "{", "[{", `{"error":`, `{"error":null}`,
	`{"error":[]}`, `{"error":{"code":{}}}`, `{"error":{"code":1e999}}`, `{"error":{"details":{"@type":1}}}`,
	`{"error":{"details":[null,1,"x",{"@type":null}]}}`, `[{"errorCode":null}]`, `[1,2,3]`, `{"name":[],"details":"x"}`,
	`{"name":"X","details":[{"issue":{}}],"links":{}}`, "<html><body>502</body></html>", "\xff\xfe{}",
	`{"error":{"code":"x","innerError":{"innerError":{"innerError":null}}}}`,
}

// TestEnterpriseOddBodies runs every translator of the group over odd
// bodies and statuses: no panic, and a 2xx odd body is never an error.
func TestEnterpriseOddBodies(t *testing.T) {
	for _, tr := range []Translator{builtinNamed("google"), builtinNamed("msgraph"), builtinNamed("salesforce"), builtinNamed("paypal")} {
		for _, body := range entOddBodies {
			for _, status := range []int{200, 400, 429, 500} {
				r := &Raw{Status: status, Header: http.Header{}, Body: []byte(body)}
				tr.Recognizes(r)
				_, ok := tr.Translate(r)
				if status < 400 {
					assert.False(t, ok, "%s %d %q", tr.Vendor(), status, body)
				}
			}
		}
	}
}

// TestEnterpriseCodesAreBuiltin checks every table against the default
// registry.
func TestEnterpriseCodesAreBuiltin(t *testing.T) {
	c := classify.New(nil)
	for _, tr := range []Translator{builtinNamed("google"), builtinNamed("msgraph"), builtinNamed("salesforce"), builtinNamed("paypal")} {
		require.NoError(t, c.RegisterVendor(tr.Vendor(), tr.Codes()), tr.Vendor())
	}
}

// googleRaw builds a JSON response for the Google tests.
func googleRaw(status int, body string) *Raw {
	return &Raw{Status: status, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(body)}
}

func TestGoogleDetails(t *testing.T) {
	o, ok := builtinNamed("google").Translate(googleRaw(429, `{"error":{"code":429,"message":"m","status":"RESOURCE_EXHAUSTED","details":[
		{"@type":"type.googleapis.com/google.rpc.RequestInfo","requestId":"req-1"},
		{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"0.250s"},
		{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"9s"},
		{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"description":"no field"},{"field":"b"}]}]}}`))
	require.True(t, ok)
	assert.Equal(t, "RESOURCE_EXHAUSTED", o.VendorCode)
	assert.Equal(t, "req-1", o.RequestID)
	assert.Equal(t, 250*time.Millisecond, o.Delay, "the first RetryInfo wins")
	assert.Equal(t, "b", o.Field)
	assert.Equal(t, []toolerr.Violation{{Field: "", Reason: "no field"}, {Field: "/b", Reason: ""}}, o.Violations)
}

// TestGoogleFieldViolations: every field violation reaches the error's
// violations, its path as a JSON pointer and its description filtered;
// one without a description says the value is invalid.
func TestGoogleFieldViolations(t *testing.T) {
	e := Default().Classify(context.Background(), &Raw{Host: "compute.googleapis.com", Status: 400,
		Header: http.Header{"Content-Type": {"application/json"}},
		Body: []byte(`{"error":{"code":400,"message":"bad","status":"INVALID_ARGUMENT","details":[{"@type":"type.googleapis.com/google.rpc.BadRequest",
		"fieldViolations":[{"field":"instance.disks[0].sizeGb","description":"Must be at least 10"},{"field":"instance.name"},
		{"field":"instance.metadata","description":"token ghp_R8mZt2QvK9xLp4NwY7bC3dHs6JfA1eUo5GkT is not allowed"}]}]}}`)})
	require.NotNil(t, e)
	assert.Equal(t, toolerr.CodeValidationFailed, e.Code)
	require.Len(t, e.Violations, 3)
	assert.Equal(t, toolerr.Violation{Field: "/instance/disks/0/sizeGb", Reason: "Must be at least 10"}, e.Violations[0])
	assert.Equal(t, toolerr.Violation{Field: "/instance/name", Reason: "is invalid"}, e.Violations[1])
	assert.NotContains(t, e.Violations[2].Reason, "R8mZt2QvK9xLp4NwY7bC3dHs6JfA1eUo5GkT", "a violation's reason is sanitized")
	assert.Contains(t, e.Violations[2].Reason, "is not allowed")
}

func TestGoogleWrongTypes(t *testing.T) {
	// A retryDelay that is not a proto duration, metadata that is not a map
	// of strings and a status that is a number: each reads as absent.
	o, ok := builtinNamed("google").Translate(googleRaw(429, `{"error":{"code":429,"message":"m","status":7,"details":[
		{"@type":"type.googleapis.com/google.rpc.ErrorInfo","reason":"RATE_LIMIT_EXCEEDED","metadata":{"quota_limit":5,"quota_metric":"x/PerDay-ish"}},
		{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":12}]}}`))
	require.True(t, ok)
	assert.Equal(t, "RATE_LIMIT_EXCEEDED/PerDay", o.VendorCode, "quota_metric names a per-day quota")
	assert.Zero(t, o.Delay)

	o, ok = builtinNamed("google").Translate(googleRaw(400, `{"error":{"code":"400","message":"m","errors":[{"reason":7,"location":"q","locationType":"parameter"}]}}`))
	require.True(t, ok)
	assert.Empty(t, o.VendorCode)
	assert.Equal(t, "q", o.Field, "a legacy parameter location is the field")
}

func TestGoogleSuccessStatus(t *testing.T) {
	_, ok := builtinNamed("google").Translate(googleRaw(200, `{"error":{"code":403,"message":"denied","status":"PERMISSION_DENIED"}}`))
	assert.True(t, ok, "an error body on a 200 is an error")
	_, ok = builtinNamed("google").Translate(googleRaw(200, `{"error":{"code":0,"message":""}}`))
	assert.False(t, ok)
	_, ok = builtinNamed("google").Translate(googleRaw(200, `{"error":"invalid_grant"}`))
	assert.False(t, ok)
}

func TestGoogleOAuth(t *testing.T) {
	o, ok := builtinNamed("google").Translate(googleRaw(400, `{"error":"invalid_grant","error_description":"Token has been expired or revoked."}`))
	require.True(t, ok)
	assert.Equal(t, "invalid_grant", o.VendorCode)
	assert.Equal(t, "Token has been expired or revoked.", o.Message)
}

func TestGoogleRecognizes(t *testing.T) {
	g := builtinNamed("google")
	assert.True(t, g.Recognizes(googleRaw(404, `{"error":{"code":404,"message":"m","status":"NOT_FOUND"}}`)))
	assert.True(t, g.Recognizes(googleRaw(403, `{"error":{"code":403,"errors":[{"domain":"usageLimits","reason":"dailyLimitExceeded"}]}}`)))
	assert.True(t, g.Recognizes(googleRaw(400, `[{"error":{"code":400,"details":[{"@type":"type.googleapis.com/google.rpc.BadRequest"}]}}]`)))
	assert.False(t, g.Recognizes(googleRaw(404, `{"error":{"code":"itemNotFound","message":"m"}}`)), "Graph's string code")
	assert.False(t, g.Recognizes(googleRaw(404, `{"error":{"code":404,"message":"m","status":"Not Found"}}`)))
	assert.False(t, g.Recognizes(googleRaw(400, `{"error":{"type":"invalid_request_error","message":"m"}}`)))
}

func TestGoogleHugeBody(t *testing.T) {
	body := `{"error":{"code":400,"message":"m","status":"INVALID_ARGUMENT","details":[` +
		strings.Repeat(`{"@type":"type.googleapis.com/google.rpc.BadRequest","fieldViolations":[{"field":"f"}]},`, 5000) +
		`{}]}}`
	o, ok := builtinNamed("google").Translate(googleRaw(400, body))
	require.True(t, ok)
	assert.Equal(t, "f", o.Field)
}

func TestGoogleUnknownOutcome(t *testing.T) {
	body := `{"error":{"code":500,"message":"m","status":"INTERNAL"}}`
	for _, c := range []struct {
		method     string
		idempotent bool
		want       classify.RetryAdvice
	}{{"GET", false, classify.AdviceNone}, {"POST", false, classify.AdviceDoNotRetry}, {"POST", true, classify.AdviceNone}, {"patch", false, classify.AdviceDoNotRetry}} {
		r := googleRaw(500, body)
		r.Method, r.Idempotent = c.method, c.idempotent
		o, ok := builtinNamed("google").Translate(r)
		require.True(t, ok)
		assert.Equal(t, c.want, o.Evidence.Retry, c.method)
	}
}

// TestGoogleOAuthCodes classifies every registered OAuth code a Google API
// sends in the OAuth shape as the oauth2 translator does, invalid_token
// (an API rejecting an access token, with a 400) among them.
func TestGoogleOAuthCodes(t *testing.T) {
	for code, want := range oauthCodes {
		assert.Equal(t, want, googleCodes[code], code)
	}
	e := Default().Classify(context.Background(), &Raw{Host: "www.googleapis.com", Status: 400,
		Body: []byte(`{"error":"invalid_token","error_description":"Invalid Value"}`)})
	require.NotNil(t, e)
	assert.Equal(t, toolerr.CodeUnauthenticated, e.Code)
	assert.Equal(t, "google", e.Upstream.Vendor)
	assert.Equal(t, "invalid_token", e.Upstream.Code)
}
