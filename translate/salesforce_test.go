package translate

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// sfRaw builds a JSON response for the Salesforce tests.
func sfRaw(status int, body string) *Raw {
	return &Raw{Status: status, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(body)}
}

func TestSalesforceShapes(t *testing.T) {
	o, ok := builtinNamed("salesforce").Translate(sfRaw(400, `{"errorCode":"INVALID_FIELD","message":"m"}`))
	require.True(t, ok, "a single object")
	assert.Equal(t, "INVALID_FIELD", o.VendorCode)

	o, ok = builtinNamed("salesforce").Translate(sfRaw(400, `[{"errorCode":"REQUIRED_FIELD_MISSING","message":"m","fields":[7,"","Name"]}]`))
	require.True(t, ok)
	assert.Equal(t, "Name", o.Field, "non-string and empty fields are skipped")

	o, ok = builtinNamed("salesforce").Translate(sfRaw(400, `[{"errorCode":"INVALID_FIELD","message":"m","fields":"Name"}]`))
	require.True(t, ok)
	assert.Empty(t, o.Field)

	for _, body := range []string{`[]`, `[1]`, `[{"errorCode":5}]`, `{"message":"m"}`, `[{"message":"m"}]`} {
		_, ok := builtinNamed("salesforce").Translate(sfRaw(400, body))
		assert.False(t, ok, body)
	}
}

func TestSalesforceLimits(t *testing.T) {
	assert.Equal(t, "TotalRequests", salesforceLimitName("TotalRequests Limit exceeded."))
	assert.Equal(t, "ConcurrentPerOrgLongTxn", salesforceLimitName("ConcurrentPerOrgLongTxn Limit exceeded."))
	assert.Empty(t, salesforceLimitName("Something else"))
	assert.Empty(t, salesforceLimitName("a b Limit exceeded"))
	assert.Equal(t, "15000/15000", salesforceAPIUsage("api-usage=15000/15000"))
	assert.Equal(t, "3/5000", salesforceAPIUsage("per-app-api-usage=1/100(appName=x), api-usage=3/5000"))
	assert.Empty(t, salesforceAPIUsage(""))

	o, ok := builtinNamed("salesforce").Translate(sfRaw(403, `[{"errorCode":"REQUEST_LIMIT_EXCEEDED","message":"ConcurrentRequests Limit exceeded."}]`))
	require.True(t, ok)
	assert.Equal(t, "REQUEST_LIMIT_EXCEEDED/Concurrent", o.VendorCode)
	o, _ = builtinNamed("salesforce").Translate(sfRaw(403, `[{"errorCode":"REQUEST_LIMIT_EXCEEDED","message":"no limit named"}]`))
	assert.Equal(t, "REQUEST_LIMIT_EXCEEDED", o.VendorCode, "an unnamed limit is the org's allowance")
}

func TestSalesforceRecognizes(t *testing.T) {
	s := builtinNamed("salesforce")
	assert.True(t, s.Recognizes(sfRaw(400, `[{"message":"m","errorCode":"INVALID_FIELD"}]`)))
	assert.False(t, s.Recognizes(sfRaw(400, `[{"message":"m","errorCode":"invalid"}]`)))
	assert.False(t, s.Recognizes(sfRaw(200, `[{"message":"m","errorCode":"INVALID_FIELD"}]`)))
	assert.False(t, s.Recognizes(sfRaw(400, `[{"error":{"code":400}}]`)), "Google's array form")
	assert.False(t, s.Recognizes(sfRaw(400, `{"errorCode":"INVALID_FIELD","message":"m"}`)))
}
