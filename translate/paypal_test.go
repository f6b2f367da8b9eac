package translate

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// ppRaw builds a JSON response for the PayPal tests.
func ppRaw(status int, body string) *Raw {
	return &Raw{Status: status, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(body)}
}

func TestPayPalFallbacks(t *testing.T) {
	r := ppRaw(400, `{"name":"INVALID_REQUEST","message":"m","details":[{"issue":7,"field":["x"]}],"links":[{"rel":"information_link"}]}`)
	r.Header.Set("Paypal-Debug-Id", "hdr-1")
	o, ok := builtinNamed("paypal").Translate(r)
	require.True(t, ok)
	assert.Equal(t, "INVALID_REQUEST", o.VendorCode, "a non-string issue leaves the name")
	assert.Empty(t, o.Field)
	assert.Equal(t, "hdr-1", o.RequestID, "the header when the body has no debug_id")
	assert.Nil(t, o.Details["doc_url"])

	o, ok = builtinNamed("paypal").Translate(ppRaw(400, `{"name":"VALIDATION_ERROR","message":"m","debug_id":"d1","details":[{"field":"a.b","issue":"Value is invalid."}]}`))
	require.True(t, ok)
	assert.Equal(t, "VALIDATION_ERROR", o.VendorCode, "a sentence in issue is not a code")
	assert.Equal(t, "Value is invalid.", o.Message)
	assert.Equal(t, "a.b", o.Field)
	assert.Equal(t, "d1", o.RequestID)

	for _, body := range []string{`{"message":"m"}`, `{"name":5}`, `[{"name":"X"}]`, `{"name":""}`} {
		_, ok := builtinNamed("paypal").Translate(ppRaw(400, body))
		assert.False(t, ok, body)
	}
}

func TestPayPalRecognizes(t *testing.T) {
	p := builtinNamed("paypal")
	assert.True(t, p.Recognizes(ppRaw(404, `{"name":"RESOURCE_NOT_FOUND","message":"m","debug_id":"d"}`)))
	assert.False(t, p.Recognizes(ppRaw(404, `{"name":"RESOURCE_NOT_FOUND","message":"m"}`)), "no debug_id")
	assert.False(t, p.Recognizes(ppRaw(404, `{"name":"Error","message":"m","debug_id":"d"}`)))
	r := ppRaw(401, `{"error":"invalid_client","error_description":"m"}`)
	assert.False(t, p.Recognizes(r))
	r.Header.Set("Paypal-Debug-Id", "d")
	assert.True(t, p.Recognizes(r))
}
