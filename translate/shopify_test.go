package translate

import (
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
)

func TestShopifyThrottleDelay(t *testing.T) {
	cases := []struct {
		name string
		ext  string
		want time.Duration
	}{
		{"exact", `{"cost":{"requestedQueryCost":133,"throttleStatus":{"currentlyAvailable":40,"restoreRate":50.0}}}`, 1860 * time.Millisecond},
		{"exact despite floating point", `{"cost":{"requestedQueryCost":752,"throttleStatus":{"currentlyAvailable":666,"restoreRate":50.0}}}`, 1720 * time.Millisecond},
		{"rounds up to a millisecond", `{"cost":{"requestedQueryCost":100,"throttleStatus":{"currentlyAvailable":40,"restoreRate":7}}}`, 8572 * time.Millisecond},
		{"fractional available", `{"cost":{"requestedQueryCost":50,"throttleStatus":{"currentlyAvailable":49.9995,"restoreRate":1000}}}`, time.Millisecond},
		{"enough available", `{"cost":{"requestedQueryCost":10,"throttleStatus":{"currentlyAvailable":40,"restoreRate":50}}}`, 0},
		{"zero rate", `{"cost":{"requestedQueryCost":100,"throttleStatus":{"currentlyAvailable":40,"restoreRate":0}}}`, 0},
		{"negative rate", `{"cost":{"requestedQueryCost":100,"throttleStatus":{"currentlyAvailable":40,"restoreRate":-5}}}`, 0},
		{"missing cost", `{"cost":{"throttleStatus":{"currentlyAvailable":40,"restoreRate":50}}}`, 0},
		{"string numbers", `{"cost":{"requestedQueryCost":"100","throttleStatus":{"currentlyAvailable":40,"restoreRate":50}}}`, 0},
		{"huge cost is bounded", `{"cost":{"requestedQueryCost":1e300,"throttleStatus":{"currentlyAvailable":0,"restoreRate":1e-300}}}`, shopifyMaxThrottle},
		{"overflowing number", `{"cost":{"requestedQueryCost":1e999,"throttleStatus":{"currentlyAvailable":0,"restoreRate":1}}}`, 0},
		{"not an object", `[1,2]`, 0},
		{"null", `null`, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			assert.Equal(t, c.want, shopifyThrottleDelay(json.RawMessage(c.ext)))
		})
	}
	assert.Zero(t, shopifyThrottleDelay(nil))
}

func TestShopifyREST(t *testing.T) {
	cases := []struct {
		name, body, msg, field string
	}{
		{"string", `{"errors":"Not Found"}`, "Not Found", ""},
		{"first key in document order", `{"errors":{"zeta":["is bad"],"alpha":["is worse"]}}`, "zeta is bad", "zeta"},
		{"string value", `{"errors":{"product":"Required parameter missing or invalid"}}`, "product Required parameter missing or invalid", "product"},
		{"base is no field", `{"errors":{"base":["Cannot delete the last variant"]}}`, "Cannot delete the last variant", ""},
		{"array", `{"errors":["first","second"]}`, "first", ""},
		{"oauth", `{"error":"invalid_request","error_description":"Missing code"}`, "Missing code", ""},
		{"empty object", `{"errors":{}}`, "", ""},
		{"wrong type", `{"errors":42}`, "", ""},
		{"not JSON", `<html>oops</html>`, "", ""},
		{"empty", ``, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, ok := builtinNamed("shopify").Translate(rawJSON(422, c.body))
			assert.True(t, ok, "every Shopify 4xx is read")
			assert.Equal(t, c.msg, o.Message)
			assert.Equal(t, c.field, o.Field)
		})
	}
}

func TestShopifySuccesses(t *testing.T) {
	for _, body := range []string{
		`{"data":{"shop":{"name":"Acme"}}}`,
		`{"data":{"productCreate":{"product":null,"userErrors":[{"field":["title"],"message":"Title can't be blank"}]}}}`,
		`{"errors":"Not Found"}`, // a REST shape below 400 is no error
		`{"products":[]}`,
	} {
		_, ok := builtinNamed("shopify").Translate(rawJSON(200, body))
		assert.False(t, ok, body)
	}
}

func TestShopifyRecognizes(t *testing.T) {
	tr := builtinNamed("shopify")
	assert.True(t, tr.Recognizes(&Raw{Header: http.Header{"X-Shopify-Shop-Api-Call-Limit": {"40/40"}}}))
	assert.True(t, tr.Recognizes(&Raw{Header: http.Header{}, Body: []byte(`{"extensions":{"cost":{"requestedQueryCost":1,"throttleStatus":{}}}}`)}))
	assert.False(t, tr.Recognizes(&Raw{Header: http.Header{"X-Request-Id": {"abc"}}, Body: []byte(`{"errors":"Not Found"}`)}))
	assert.False(t, tr.Recognizes(rawJSON(200, `{"errors":[{"message":"x","extensions":{"code":"THROTTLED"}}]}`)))
}

func TestShopifyGraphQLPicksTheCodedError(t *testing.T) {
	o, ok := builtinNamed("shopify").Translate(rawJSON(200, `{"errors":[{"message":"plain"},{"message":"Throttled","extensions":{"code":"THROTTLED"}}],"extensions":{"cost":{"requestedQueryCost":60,"throttleStatus":{"currentlyAvailable":10,"restoreRate":50}}}}`))
	assert.True(t, ok)
	assert.Equal(t, "THROTTLED", o.VendorCode)
	assert.True(t, o.Evidence.RateLimited)
	assert.Equal(t, time.Second, o.Delay)
}

func TestShopifyCodesAreBuiltin(t *testing.T) {
	_, err := NewSet(nil, WithoutBuiltins(), WithTranslators(builtinNamed("shopify"), builtinNamed("hubspot"), builtinNamed("jira")))
	assert.NoError(t, err)
}
