package translate

import (
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestHubSpotTranslate(t *testing.T) {
	cases := []struct {
		name, body, code, field, msg string
	}{
		{"category", `{"status":"error","message":"m","category":"OBJECT_NOT_FOUND"}`, "OBJECT_NOT_FOUND", "", "m"},
		{"errorType", `{"status":"error","message":"m","errorType":"RATE_LIMIT"}`, "RATE_LIMIT", "", "m"},
		{"propertyName string", `{"category":"VALIDATION_ERROR","errors":[{"message":"bad","context":{"propertyName":"email"}}]}`, "VALIDATION_ERROR", "email", "bad"},
		{"in", `{"category":"VALIDATION_ERROR","errors":[{"message":"bad","in":"amount"}]}`, "VALIDATION_ERROR", "amount", "bad"},
		{"wrong types", `{"category":7,"message":["x"],"errors":"nope","correlationId":{}}`, "", "", ""},
		{"null error item", `{"category":"CONFLICT","errors":[null]}`, "CONFLICT", "", ""},
		{"context wrong type", `{"category":"VALIDATION_ERROR","errors":[{"message":"bad","context":[1],"in":{"x":1}}]}`, "VALIDATION_ERROR", "", "bad"},
		{"not JSON", `<html>502</html>`, "", "", ""},
		{"empty", ``, "", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, ok := builtinNamed("hubspot").Translate(rawJSON(400, c.body))
			assert.True(t, ok)
			assert.Equal(t, c.code, o.VendorCode)
			assert.Equal(t, c.field, o.Field)
			assert.Equal(t, c.msg, o.Message)
		})
	}
}

func TestHubSpotRateLimits(t *testing.T) {
	body := func(policy string) string {
		return `{"status":"error","message":"limit","errorType":"RATE_LIMIT","policyName":"` + policy + `"}`
	}
	r := rawJSON(429, body("TEN_SECONDLY_ROLLING"))
	r.Header.Set("X-HubSpot-RateLimit-Interval-Milliseconds", "10000")
	o, _ := builtinNamed("hubspot").Translate(r)
	assert.Equal(t, "TEN_SECONDLY_ROLLING", o.VendorCode)
	assert.Equal(t, 10*time.Second, o.Delay)
	assert.True(t, o.Evidence.RateLimited)

	r.Header.Set("Retry-After", "2")
	o, _ = builtinNamed("hubspot").Translate(r)
	assert.Zero(t, o.Delay, "Retry-After is the classifier's to read")

	r = rawJSON(429, body("TEN_SECONDLY_ROLLING"))
	r.Header.Set("X-HubSpot-RateLimit-Interval-Milliseconds", "-5")
	o, _ = builtinNamed("hubspot").Translate(r)
	assert.Zero(t, o.Delay, "junk interval")

	r = rawJSON(429, body("DAILY"))
	r.Header.Set("X-HubSpot-RateLimit-Interval-Milliseconds", "10000")
	o, _ = builtinNamed("hubspot").Translate(r)
	assert.Equal(t, "DAILY", o.VendorCode)
	assert.Zero(t, o.Delay)
	assert.False(t, o.Evidence.RateLimited, "a daily limit is a quota, not a passing rate limit")

	r = rawJSON(429, `{"status":"error","message":"limit","category":"RATE_LIMITS"}`)
	r.Header.Set("X-HubSpot-RateLimit-Daily-Remaining", "0")
	o, _ = builtinNamed("hubspot").Translate(r)
	assert.Equal(t, "DAILY", o.VendorCode, "an unnamed policy with no daily remainder is the daily limit")
}

func TestHubSpotBelow400(t *testing.T) {
	_, ok := builtinNamed("hubspot").Translate(rawJSON(207, `{"status":"COMPLETE","errors":[{"status":"error","category":"VALIDATION_ERROR"}]}`))
	assert.False(t, ok)
}

func TestHubSpotRecognizes(t *testing.T) {
	tr := builtinNamed("hubspot")
	assert.True(t, tr.Recognizes(&Raw{Header: http.Header{"X-Hubspot-Correlation-Id": {"c"}}}))
	assert.True(t, tr.Recognizes(rawJSON(400, `{"status":"error","message":"m","correlationId":"c"}`)))
	assert.False(t, tr.Recognizes(rawJSON(400, `{"status":"error","message":"m"}`)))
	assert.False(t, tr.Recognizes(rawJSON(400, `{"status":"fail","correlationId":"c"}`)))
	assert.False(t, tr.Recognizes(rawJSON(400, `{"correlationId":`+strings.Repeat("[", 5000))))
}
