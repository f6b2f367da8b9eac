package translate

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// graphRaw builds a JSON response for the Graph tests.
func graphRaw(status int, body string) *Raw {
	return &Raw{Status: status, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(body)}
}

func TestMSGraphRequestID(t *testing.T) {
	r := graphRaw(404, `{"error":{"code":"itemNotFound","message":"m","innerError":{"request-id":"abc","date":"2025-01-01T00:00:00"}}}`)
	o, ok := builtinNamed("msgraph").Translate(r)
	require.True(t, ok)
	assert.Equal(t, "abc", o.RequestID)

	r = graphRaw(404, `{"error":{"code":"itemNotFound","message":"m"}}`)
	r.Header.Set("Client-Request-Id", "client-1")
	o, _ = builtinNamed("msgraph").Translate(r)
	assert.Equal(t, "client-1", o.RequestID)
	r.Header.Set("Request-Id", "server-1")
	o, _ = builtinNamed("msgraph").Translate(r)
	assert.Equal(t, "server-1", o.RequestID, "request-id before client-request-id")
}

func TestMSGraphPick(t *testing.T) {
	for _, c := range []struct {
		codes []string
		want  string
	}{
		{[]string{"invalidRequest", "invalidRange", "fragmentOverlap"}, "invalidRange"},
		{[]string{"itemNotFound", "generalException"}, "itemNotFound"},
		{[]string{"generalException"}, "generalException"},
		{[]string{"invalidRequest", "someNewCode"}, "someNewCode"},
		{[]string{"BadRequest", "UnknownError"}, "BadRequest"},
		{[]string{""}, ""},
	} {
		assert.Equal(t, c.want, msGraphPick(c.codes), "%v", c.codes)
	}
}

func TestMSGraphDeepNesting(t *testing.T) {
	// 500 levels: only msGraphMaxDepth are followed.
	body := `{"error":{"code":"invalidRequest","message":"m",` + strings.Repeat(`"innererror":{"code":"invalidName",`, 500) +
		`"x":1` + strings.Repeat(`}`, 500) + `}}`
	o, ok := builtinNamed("msgraph").Translate(graphRaw(400, body))
	require.True(t, ok)
	assert.Equal(t, "invalidName", o.VendorCode)
}

func TestMSGraphWrongTypes(t *testing.T) {
	o, ok := builtinNamed("msgraph").Translate(graphRaw(400, `{"error":{"code":400,"message":"m","innerError":"x","details":"y"}}`))
	require.True(t, ok, "a message alone is still an error")
	assert.Empty(t, o.VendorCode)
	_, ok = builtinNamed("msgraph").Translate(graphRaw(400, `{"error":{"code":7}}`))
	assert.False(t, ok)
	_, ok = builtinNamed("msgraph").Translate(graphRaw(400, `{"error":"invalid_grant"}`))
	assert.False(t, ok)
}

func TestMSGraphRecognizes(t *testing.T) {
	g := builtinNamed("msgraph")
	assert.True(t, g.Recognizes(graphRaw(403, `{"error":{"code":"accessDenied","message":"m","innerError":{"date":"2025-01-01T00:00:00"}}}`)))
	r := graphRaw(404, `{"error":{"code":"ErrorItemNotFound","message":"m"}}`)
	assert.False(t, g.Recognizes(r), "an Azure-style error without Graph's marks")
	r.Header.Set("X-Ms-Ags-Diagnostic", `{"ServerInfo":{}}`)
	assert.True(t, g.Recognizes(r))
	assert.False(t, g.Recognizes(graphRaw(404, `{"error":{"code":404,"message":"m","status":"NOT_FOUND"}}`)), "Google's numeric code")
}
