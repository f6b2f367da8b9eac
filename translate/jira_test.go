package translate

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestJiraTranslate(t *testing.T) {
	cases := []struct {
		name, body, msg, field string
	}{
		{"errorMessages first", `{"errorMessages":["Issue does not exist"],"errors":{"summary":"required"}}`, "Issue does not exist", "summary"},
		{"field error as message", `{"errorMessages":[],"errors":{"summary":"You must specify a summary","priority":"bad"}}`, "You must specify a summary", "summary"},
		{"first key in document order", `{"errors":{"zz":"a","aa":"b"}}`, "a", "zz"},
		{"gateway message", `{"code":401,"message":"Unauthorized; scope does not match"}`, "Unauthorized; scope does not match", ""},
		{"service desk", `{"errorMessage":"Request type not found","i18nErrorMessage":{"i18nKey":"sd.x"}}`, "Request type not found", ""},
		{"wrong types", `{"errorMessages":"x","errors":["y"]}`, "x", ""},
		{"numbers", `{"errorMessages":[1],"errors":{"a":2}}`, "", "a"},
		{"malformed", `{"errorMessages":["x"`, "", ""},
		{"empty", ``, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, ok := builtinNamed("jira").Translate(rawJSON(400, c.body))
			assert.True(t, ok)
			assert.Equal(t, c.msg, o.Message)
			assert.Equal(t, c.field, o.Field)
			assert.Empty(t, o.VendorCode, "Jira writes no codes")
		})
	}
}

func TestJiraPlainText(t *testing.T) {
	r := &Raw{Status: 401, Header: http.Header{"Content-Type": {"text/plain"}}, Body: []byte("  Client must be authenticated.\n")}
	o, ok := builtinNamed("jira").Translate(r)
	assert.True(t, ok)
	assert.Equal(t, "Client must be authenticated.", o.Message)

	r.Body = []byte(strings.Repeat("x", maxTextMessage+1))
	o, _ = builtinNamed("jira").Translate(r)
	assert.Empty(t, o.Message, "long text is not a message")

	r.Body = []byte{0xff, 0xfe, 'x'}
	o, _ = builtinNamed("jira").Translate(r)
	assert.Empty(t, o.Message, "invalid UTF-8")
}

func TestJiraRateLimitReason(t *testing.T) {
	r := rawJSON(429, ``)
	r.Header.Set("X-Beta-RateLimit-Reason", "jira-quota-global-based")
	o, _ := builtinNamed("jira").Translate(r)
	assert.Equal(t, "jira-quota-global-based", o.VendorCode)

	r = rawJSON(400, `{}`)
	r.Header.Set("RateLimit-Reason", "jira-burst-based")
	o, _ = builtinNamed("jira").Translate(r)
	assert.Empty(t, o.VendorCode, "the reason is read on a 429 only")

	_, ok := builtinNamed("jira").Translate(rawJSON(200, `{"errorMessages":["x"],"errors":{}}`))
	assert.False(t, ok)
}

func TestJiraRecognizes(t *testing.T) {
	tr := builtinNamed("jira")
	assert.True(t, tr.Recognizes(&Raw{Header: http.Header{"X-Arequestid": {"1"}}}))
	assert.True(t, tr.Recognizes(rawJSON(400, `{"errorMessages":[],"errors":{}}`)))
	r := rawJSON(404, `{"errorMessages":["x"]}`)
	assert.False(t, tr.Recognizes(r), "errorMessages alone is not enough")
	r.Header.Set("ATL-TraceId", "abc")
	assert.True(t, tr.Recognizes(r))
	assert.False(t, tr.Recognizes(rawJSON(400, `{"errorMessages":"x","errors":{}}`)))
	assert.False(t, tr.Recognizes(rawJSON(400, `{"message":"x","errors":{}}`)))
}
