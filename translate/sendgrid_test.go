package translate

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestSendGridTranslateEdgeCases feeds the SendGrid reader malformed, mistyped and oversized bodies.
func TestSendGridTranslateEdgeCases(t *testing.T) {
	tr := builtinNamed("sendgrid")
	host := "api.sendgrid.com"

	// Below 400 is never an error.
	_, ok := tr.Translate(awsRaw(202, host, "", ""))
	assert.False(t, ok)

	// No body, malformed body, errors of the wrong type: the status decides.
	for _, body := range []string{"", "not json", `{"errors":`, `{"errors":"boom"}`, `{"errors":[]}`, `[1,2]`} {
		o, ok := tr.Translate(awsRaw(400, host, "application/json", body))
		require.True(t, ok, body)
		assert.Empty(t, o.VendorCode, body)
		assert.Empty(t, o.Field, body)
	}

	// The v2 form: a list of strings.
	o, _ := tr.Translate(awsRaw(400, host, "application/json", `{"message":"error","errors":["Invalid email"]}`))
	assert.Equal(t, "Invalid email", o.Message)

	// Entries of the wrong types, a help object, a field of the wrong type.
	o, _ = tr.Translate(awsRaw(400, host, "application/json", `{"errors":[7,{"message":"m","field":3,"help":{"link":"x"}}]}`))
	assert.Empty(t, o.Field)
	assert.NotContains(t, o.Details, "doc_url")
	assert.Equal(t, float64(2), o.Details["error_count"])

	// A help text that is not a link is not a doc_url.
	o, _ = tr.Translate(awsRaw(400, host, "application/json", `{"errors":[{"message":"m","field":"subject","help":"see the docs"}]}`))
	assert.Equal(t, "subject", o.Field)
	assert.Nil(t, o.Details)

	// A huge errors array is bounded.
	entries := strings.Repeat(`{"message":"m","field":null},`, 5000)
	o, _ = tr.Translate(awsRaw(400, host, "application/json", `{"errors":[`+entries+`{"message":"last"}]}`))
	assert.Equal(t, float64(sendgridMaxErrors), o.Details["error_count"])

	// The credits message in other cases and with a period.
	for _, msg := range []string{"Maximum credits exceeded", "maximum credits exceeded.", " Maximum Credits Exceeded "} {
		o, _ = tr.Translate(awsRaw(401, host, "application/json", `{"errors":[{"message":"`+msg+`"}]}`))
		assert.Equal(t, sendgridCreditsExceeded, o.VendorCode, msg)
	}
	o, _ = tr.Translate(awsRaw(401, host, "application/json", `{"errors":[{"message":"Maximum credits exceeded for user x"}]}`))
	assert.Empty(t, o.VendorCode)
}

// TestSendGridRecognizes checks which captured responses SendGrid claims.
func TestSendGridRecognizes(t *testing.T) {
	tr := builtinNamed("sendgrid")
	assert.True(t, tr.Recognizes(awsRaw(400, "", "", `{"errors":[{"message":"m","help":"http://sendgrid.com/docs/x"}]}`)))
	assert.False(t, tr.Recognizes(awsRaw(400, "", "", `{"errors":[{"message":"m","field":"f"}]}`)))
	assert.False(t, tr.Recognizes(awsRaw(400, "", "", `<errors>sendgrid.com/</errors>`)))
}

// TestSendGridRecognizesDocumentedShape claims SendGrid's documented v3
// error shape without its headers or links, and leaves look-alikes.
func TestSendGridRecognizesDocumentedShape(t *testing.T) {
	tr := builtinNamed("sendgrid")
	for _, body := range []string{
		`{"errors":[{"field":"from.email","message":"The from email does not contain a valid address.","help":null}]}`,
		`{"errors":[{"field":null,"message":"internal error","help":null}],"id":"abc"}`,
	} {
		assert.True(t, tr.Recognizes(awsRaw(400, "", "application/json", body)), body)
	}
	for _, body := range []string{
		`{"errors":[{"message":"m","field":"f"}]}`,                        // no help member
		`{"errors":[{"message":"m","field":"f","help":null,"code":"x"}]}`, // a member SendGrid does not write
		`{"errors":[{"message":"m","help":null}],"data":null}`,            // GraphQL-ish top level
		`{"errors":[{"field":"f","help":null}]}`,                          // no message
		`{"errors":[]}`,
		`{"errors":"m"}`,
	} {
		assert.False(t, tr.Recognizes(awsRaw(400, "", "application/json", body)), body)
	}
}
