package translate

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// slackRecognizes claims a response with Slack's request headers, or Slack's
// error envelope: "ok": false with a snake_case "error" token (the error
// being a string tells it from an error envelope with an "error" object).
func slackRecognizes(r *Raw) bool {
	if canonheader.Value(r.Header, "X-Slack-Req-Id") != "" || canonheader.Value(r.Header, "X-Slack-Backend") != "" {
		return true
	}
	if !bytes.Contains(r.Body, []byte(`"ok"`)) {
		return false
	}
	m := r.object()
	if m == nil {
		return false
	}
	okv, present := m.boolean("ok")
	return present && !okv && isSnakeToken(m.str("error"))
}

// slackTranslate reads Slack errors. The Web API answers most errors with
// HTTP 200 and an envelope:
//
//	{"ok": false, "error": "invalid_arguments",
//	 "response_metadata": {"messages": ["[ERROR] missing required field: text [json-pointer:/blocks/0]"]}}
//
// and rate limits with HTTP 429, Retry-After and "error": "ratelimited".
// Incoming webhooks (hooks.slack.com) answer with a 4xx status and the
// error token as a plain-text body ("invalid_payload"). The vendor code is
// the error token; the field is the json-pointer of the first message. An
// {"ok": true} body is a success.
//
// It reads a Slack error: the ok:false envelope at any status, or a
// webhook's plain-text token at a 4xx or 5xx.
func slackTranslate(r *Raw) (classify.Outcome, bool) {
	m := r.object()
	if m == nil {
		return slackPlain(r)
	}
	okv, present := m.boolean("ok")
	if !present || okv {
		return classify.Outcome{}, false
	}
	o := classify.Outcome{
		VendorCode: m.str("error"),
		RequestID:  canonheader.Value(r.Header, "X-Slack-Req-Id"),
	}
	if _, known := slackCodes[o.VendorCode]; !known && strings.HasSuffix(o.VendorCode, "_not_found") {
		// Slack names what a method did not find <thing>_not_found, in
		// every method (function_execution_not_found, workflow_not_found).
		o.ClassCode = "not_found"
	}
	if slackUnknownOutcome[o.VendorCode] {
		o.Evidence.Retry = unknownOutcomeAdvice(r)
	}
	var messages []string
	if meta := m.obj("response_metadata"); meta != nil {
		for _, item := range meta.items("messages") {
			if s := textOf(item); s != "" {
				messages = append(messages, s)
				break
			}
		}
	}
	if len(messages) > 0 {
		o.Message, o.Field = slackMessage(messages[0])
	} else if text, pointer, ok := slackErrorsEntry(m.items("errors")); ok {
		o.Message, o.Field = text, pointer
	} else {
		o.Message = m.str("detail")
	}
	setDetail(&o, "needed_scope", m.str("needed"))
	setDetail(&o, "provided_scopes", m.str("provided"))
	setDetail(&o, "warning", m.str("warning"))
	return o, true
}

// slackErrorsEntry reads the first usable entry of a top-level errors[]
// into a text and a pointer: a string such as "missing required field:
// alt_text [json-pointer:/…]", or an object with a message and a pointer,
// as the App Manifest APIs send with invalid_manifest (Slack Web API:
// apps.manifest.create, "Using manifests").
func slackErrorsEntry(items []json.RawMessage) (text, pointer string, ok bool) {
	for _, item := range items {
		if s := textOf(item); s != "" {
			text, pointer = slackMessage(s)
			return text, pointer, true
		}
		e := readObject(item)
		if e == nil {
			continue
		}
		if msg := e.str("message"); msg != "" {
			return msg, e.str("pointer"), true
		}
	}
	return "", "", false
}

// slackPlain reads an incoming webhook's error: a 4xx or 5xx whose whole
// body is an error token such as "channel_not_found".
func slackPlain(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 || len(r.Body) > 128 {
		return classify.Outcome{}, false
	}
	token := strings.TrimSpace(string(r.Body))
	if !isSnakeToken(token) {
		return classify.Outcome{}, false
	}
	return classify.Outcome{VendorCode: token, RequestID: canonheader.Value(r.Header, "X-Slack-Req-Id")}, true
}

// slackMessage splits one response_metadata message such as
// "[ERROR] must be more than 0 characters [json-pointer:/blocks/0/text]"
// into its text and its json-pointer.
func slackMessage(s string) (text, pointer string) {
	for _, prefix := range [...]string{"[ERROR]", "[WARN]"} {
		if rest, ok := strings.CutPrefix(s, prefix); ok {
			s = strings.TrimSpace(rest)
			break
		}
	}
	const marker = "[json-pointer:"
	if i := strings.LastIndex(s, marker); i >= 0 {
		if j := strings.IndexByte(s[i:], ']'); j > len(marker) {
			pointer = strings.TrimSpace(s[i+len(marker) : i+j])
			s = strings.TrimSpace(s[:i] + s[i+j+1:])
		}
	}
	return s, pointer
}
