package translate

import (
	"bytes"
	"strings"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// sendgridHosts are SendGrid's API hosts, global and EU.
var sendgridHosts = []string{"api.sendgrid.com", "api.eu.sendgrid.com"}

// sendgridCreditsExceeded is the code derived from SendGrid's "Maximum
// credits exceeded" message; SendGrid writes no code of its own.
const sendgridCreditsExceeded = "maximum_credits_exceeded"

// sendgridMaxErrors bounds the entries of an errors array read.
const sendgridMaxErrors = 100

// sendgridCodes is the SendGrid table: only the derived credits code.
var sendgridCodes = map[string]string{sendgridCreditsExceeded: toolerr.CodeQuotaExhausted}

// sendgridRecognizes claims a captured response by an errors body whose help
// links point at SendGrid's documentation, or by the exact shape SendGrid
// documents for v3 errors (see sendgridBodyShape): the errors array alone
// is too common to claim.
func sendgridRecognizes(r *Raw) bool {
	b := trimLeftSpace(r.Body)
	if len(b) > awsRecognizeWindow {
		b = b[:awsRecognizeWindow]
	}
	if len(b) > 0 && b[0] == '{' && bytes.Contains(b, []byte(`"errors"`)) && bytes.Contains(b, []byte("sendgrid.com/")) {
		return true
	}
	return sendgridBodyShape(r)
}

// sendgridEntryMembers are the members of a SendGrid v3 error entry: the
// ErrorResponse schema of SendGrid's OpenAPI documents has "errors":
// [{"message", "field", "help"}] and a top-level "id"; error_id appears on
// some endpoints. Format page:
// https://www.twilio.com/docs/sendgrid/api-reference/how-to-use-the-sendgrid-v3-api/errors
var sendgridEntryMembers = map[string]bool{"message": true, "field": true, "help": true, "error_id": true}

// sendgridBodyShape reports whether r's body is SendGrid's documented v3
// error and nothing else: a top-level "errors" array (beside at most an
// "id") of 1 to
// sendgridMaxErrors objects, each with a string message, a help member
// (a link or null) and no members beyond field, help and error_id. The
// help member is what sets it apart from the generic {"errors":[{"message",
// "field"}]} shapes, which stay with the generic translators.
func sendgridBodyShape(r *Raw) bool {
	m := r.object()
	if id := m.has("id"); len(m) != 1 && !(len(m) == 2 && id) {
		return false
	}
	entries := walkArray(m.get("errors"), sendgridMaxErrors+1)
	if len(entries) == 0 || len(entries) > sendgridMaxErrors {
		return false
	}
	for _, raw := range entries {
		e := walkObject(raw)
		if ok := e.has("help"); !ok || e.str("message") == "" {
			return false
		}
		for _, k := range e.keys() {
			if !sendgridEntryMembers[k] {
				return false
			}
		}
	}
	return true
}

// sendgridTranslate reads Twilio SendGrid v3 errors:
// {"errors":[{"message":…,"field":…,"help":…}]}. SendGrid sends no error
// codes, so the status decides, except for the one documented message
// whose status misleads: "Maximum credits exceeded" arrives as a 401 but
// is an exhausted sending quota.
//
// It reads the message, field and help link of the first error
// (the first that names a field, when one does). SendGrid reports errors
// only with a 4xx or 5xx status.
func sendgridTranslate(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 {
		return classify.Outcome{}, false
	}
	var o classify.Outcome
	b := trimLeftSpace(r.Body)
	if len(b) == 0 || b[0] != '{' {
		return o, true
	}
	m := r.object()
	if m == nil {
		return o, true
	}
	entries := walkArray(m.get("errors"), sendgridMaxErrors)
	if len(entries) == 0 {
		o.Message = m.str("message", "error")
		return o, true
	}
	var help string
	chosen := false
	for _, raw := range entries {
		var msg, field, link string
		if e := walkObject(raw); e != nil {
			msg, field, link = e.str("message"), e.str("field"), docURL(e.str("help"))
		} else {
			msg = textOf(raw) // the v2 form: a list of strings
		}
		if !chosen || field != "" && o.Field == "" {
			o.Message, o.Field, help = msg, field, link
			chosen = true
		}
	}
	if sendgridIsCreditsMessage(o.Message) {
		o.VendorCode = sendgridCreditsExceeded
	}
	if help != "" || len(entries) > 1 {
		o.Details = map[string]any{}
		if help != "" {
			o.Details["doc_url"] = help
		}
		if len(entries) > 1 {
			o.Details["error_count"] = float64(len(entries)) // a JSON number, as the error renders it
		}
	}
	return o, true
}

// sendgridIsCreditsMessage reports whether msg is SendGrid's "Maximum
// credits exceeded", ignoring case and a final period.
func sendgridIsCreditsMessage(msg string) bool {
	return strings.EqualFold(strings.TrimSuffix(strings.TrimSpace(msg), "."), "Maximum credits exceeded")
}
