package translate

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestTwilioCodeForms checks the forms a Twilio code member may take.
func TestTwilioCodeForms(t *testing.T) {
	cases := map[string]string{
		`20404`:      "20404",
		`"20404"`:    "20404",
		`" 21211 "`:  "21211",
		`null`:       "",
		`2.0e4`:      "",
		`-1`:         "",
		`0`:          "",
		`1234567890`: "",
		`"abc"`:      "",
		`{"x":1}`:    "",
		`[20404]`:    "",
		`true`:       "",
		``:           "",
	}
	for in, want := range cases {
		assert.Equal(t, want, twilioCode([]byte(in)), "%s", in)
	}
}

// TestTwilioTranslateEdgeCases feeds the Twilio reader malformed, mistyped and oversized bodies.
func TestTwilioTranslateEdgeCases(t *testing.T) {
	tr := builtinNamed("twilio")
	host := "api.twilio.com"

	// Below 400 Twilio never reports an error.
	_, ok := tr.Translate(awsRaw(200, host, "application/json", `{"code":20404,"message":"m","status":404}`))
	assert.False(t, ok)

	// Malformed JSON: the status decides, the request id is kept.
	o, ok := tr.Translate(awsRaw(500, host, "application/json", `{"code":`, "Twilio-Request-Id", "RQ1"))
	require.True(t, ok)
	assert.Empty(t, o.VendorCode)
	assert.Equal(t, "RQ1", o.RequestID)

	// Wrong types: code null, message a number, more_info not a link.
	o, ok = tr.Translate(awsRaw(400, host, "application/json", `{"code":null,"message":5,"more_info":"javascript:alert(1)","status":"400"}`))
	require.True(t, ok)
	assert.Empty(t, o.VendorCode)
	assert.Empty(t, o.Message)
	assert.Nil(t, o.Details)

	// A code Twilio writes as a string still reads, with its field.
	o, _ = tr.Translate(awsRaw(400, host, "application/json", `{"code":"21212","message":"m"}`))
	assert.Equal(t, "21212", o.VendorCode)
	assert.Equal(t, "From", o.Field)

	// Malformed and foreign XML.
	o, ok = tr.Translate(awsRaw(401, host, "application/xml", `<TwilioResponse><RestException><Code>20003`))
	require.True(t, ok)
	assert.Empty(t, o.VendorCode)
	o, _ = tr.Translate(awsRaw(401, host, "application/xml", `<Other><RestException><Code>20003</Code></RestException></Other>`))
	assert.Empty(t, o.VendorCode)

	// A huge message is cut at a word.
	o, _ = tr.Translate(awsRaw(400, host, "application/json", `{"code":21211,"message":"`+strings.Repeat("word ", 2000)+`"}`))
	assert.Equal(t, strings.TrimSpace(strings.Repeat("word ", (jsonTextMax+1)/5)), o.Message, "the whole words before the cap")
	// One word longer than the cap goes whole: a cut through it would keep
	// the start of a token that no sanitizer rule recognizes.
	o, _ = tr.Translate(awsRaw(400, host, "application/json", `{"code":21211,"message":"`+strings.Repeat("x", 10000)+`"}`))
	assert.Empty(t, o.Message)
	// So does a token the cap runs through, after words that stay.
	words := strings.Repeat("word ", (jsonTextMax-10)/5)
	o, _ = tr.Translate(awsRaw(400, host, "application/json", `{"code":21211,"message":"`+words+token+`"}`))
	assert.Equal(t, strings.TrimSpace(words), o.Message)
	assert.NotContains(t, o.Message, "ghp_")
}

// TestTwilioRecognizes checks which captured responses Twilio claims.
func TestTwilioRecognizes(t *testing.T) {
	tr := builtinNamed("twilio")
	assert.True(t, tr.Recognizes(awsRaw(400, "", "", "", "Twilio-Request-Id", "RQ1")))
	assert.True(t, tr.Recognizes(awsRaw(404, "", "", `{"code":20404,"message":"m","more_info":"https://www.twilio.com/docs/errors/20404"}`)))
	assert.True(t, tr.Recognizes(awsRaw(401, "", "", `<?xml version='1.0'?><TwilioResponse><RestException/></TwilioResponse>`)))
	assert.False(t, tr.Recognizes(awsRaw(404, "", "", `{"code":404,"message":"not found"}`)))
	assert.False(t, tr.Recognizes(awsRaw(404, "", "", `{"more_info":"https://example.com/errors/1"}`)))
}
