package translate

import (
	"encoding/json"
	"strings"

	"github.com/toolerr/toolerr/classify"
)

// jsonGeneric reads the common JSON error shapes no vendor translator
// claimed, first match wins:
//
//	{"error": {"code": "…" | 123, "message": "…", "field"?: "…"}}
//	{"error": "invalid_grant", "error_description": "…"}   (OAuth 2.0)
//	{"errors": [{"message", "code"?, "field"?}]}  and a top-level array of the same
//	{"errors": {"email": ["is invalid"]}}         (Rails)
//	{"message": "…" | ["…"], "code"?: …}
//	{"detail": "…" | [{"loc", "msg", "type"}]}     (FastAPI)
//
// Vendor() is "": the status decides the class, and a code is reported as
// unmapped.
type jsonGeneric struct{}

// Vendor returns "": a generic format.
func (jsonGeneric) Vendor() string { return "" }

// Hosts returns nil.
func (jsonGeneric) Hosts() []string { return nil }

// Recognizes returns false: generic translators are tried for every
// response, not by recognition.
func (jsonGeneric) Recognizes(*Raw) bool { return false }

// Codes returns nil: a generic format has no code table.
func (jsonGeneric) Codes() map[string]string { return nil }

// Translate reads one of the shapes above from a failure (status >= 400);
// ok is false for any other body.
func (jsonGeneric) Translate(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 || !r.IsJSON() {
		return classify.Outcome{}, false
	}
	b := trimLeftSpace(r.Body)
	if len(b) > 0 && b[0] == '[' {
		item := readFirstItem(b)
		if item == nil {
			return classify.Outcome{}, false
		}
		o, ok := genItem(item, r.Status)
		o.RequestID = genRequestID(nil, r)
		return o, ok
	}
	top := r.object()
	ok := top != nil
	if !ok {
		return classify.Outcome{}, false
	}
	o, ok := genShapeOf(r, top)
	if !ok {
		return classify.Outcome{}, false
	}
	if o.RequestID == "" {
		o.RequestID = genRequestID(top, r)
	}
	if o.Evidence.Retry == classify.AdviceNone {
		o.Evidence.Retry = genRetryAdvice(top)
	}
	if o.Delay == 0 {
		o.Delay = genDelayMS(top, "retry_after_ms") // honoured beside retryable, at the top too
	}
	if o.Field == "" {
		o.Field = genField(top)
	}
	return o, true
}

// genShapeOf is genShape for the body of r, whose "error" member r has
// decoded already.
func genShapeOf(r *Raw, top jsonObject) (classify.Outcome, bool) {
	if e := r.errorObject(); e != nil {
		return genErrorObject(e, r.Status), true
	}
	return genShape(top, r.Status)
}

// genShape reads the first shape top matches.
func genShape(top jsonObject, status int) (classify.Outcome, bool) {
	if e := top.obj("error"); e != nil {
		return genErrorObject(e, status), true
	}
	// {"error": "Bad Request", "message": …}: prose in "error" is a message
	// of last resort; the other members say more.
	prose := top.str("error")
	if isCode(prose) {
		return genOAuth(top, prose, status), true
	}
	if top.has("errors") {
		if item := top.first("errors"); item != nil {
			o, ok := genItem(item, status)
			if o.VendorCode == "" {
				o.VendorCode = genStatusCode(top.code("code", "error_code", "errorCode"), status)
			}
			return o, ok || o.VendorCode != ""
		}
		if msg := top.firstString("errors"); msg != "" {
			return classify.Outcome{Message: msg, VendorCode: genStatusCode(top.code("code"), status)}, true
		}
		if o, ok := genRails(top.get("errors")); ok {
			return o, true
		}
	}
	msg := top.str("message", "msg", "error_message", "errorMessage", "description")
	if msg == "" {
		msg = top.firstString("message")
	}
	code := genStatusCode(top.code("code", "error_code", "errorCode", "errorType"), status)
	if msg != "" {
		return classify.Outcome{Message: msg, VendorCode: code}, true
	}
	if d := top.str("detail"); d != "" {
		return classify.Outcome{Message: d, VendorCode: code}, true
	}
	if item := top.first("detail"); item != nil {
		return genItem(item, status)
	}
	if code != "" || prose != "" {
		return classify.Outcome{VendorCode: code, Message: prose}, true
	}
	return classify.Outcome{}, false
}

// genErrorObject reads {"error": {…}}: code (or the string status Google
// APIs add when the numeric code repeats the HTTP status, or a type),
// message, field, retry advice.
func genErrorObject(e jsonObject, status int) classify.Outcome {
	code := genStatusCode(e.code("code", "error_code", "errorCode"), status)
	if code == "" {
		code = e.code("status", "type")
		if isInteger([]byte(code)) {
			code = genStatusCode(code, status)
		}
	}
	o := classify.Outcome{
		VendorCode: code,
		Message:    e.str("message", "detail", "description", "title", "msg"),
		Field:      genField(e),
		Evidence:   classify.Evidence{Retry: genRetryAdvice(e)},
		Delay:      genDelayMS(e, "retry_after_ms"),
	}
	if id := e.str("request_id", "requestId"); isCode(id) {
		o.RequestID = id
	}
	if o.Field == "" {
		for _, k := range [...]string{"details", "errors"} {
			if item := e.first(k); item != nil {
				o.Field = genField(item)
				break
			}
		}
	}
	return o
}

// genOAuth reads an error whose "error" member is a code: OAuth 2.0's
// shape (RFC 6749 §5.2) with a code no OAuth registry holds, "error" the
// code and "error_description" the message.
func genOAuth(top jsonObject, e string, status int) classify.Outcome {
	o := classify.Outcome{Message: top.str("error_description", "message", "detail", "error_message")}
	if o.Message == "" {
		o.Message = top.firstString("message")
	}
	o.VendorCode = genStatusCode(e, status)
	if o.VendorCode == "" {
		o.VendorCode = genStatusCode(top.code("code", "error_code"), status)
	}
	if u := docURL(top.str("error_uri")); u != "" {
		o.Details = map[string]any{"doc_url": u}
	}
	return o
}

// genItem reads one entry of an errors array: JSON:API ({"code", "title",
// "detail", "source": {"pointer"}}), FastAPI ({"loc", "msg", "type"}) and
// the plain {"message", "code", "field"}. ok is false when it holds neither
// a message nor a code.
func genItem(item jsonObject, status int) (classify.Outcome, bool) {
	o := classify.Outcome{
		VendorCode: genStatusCode(item.code("code", "error_code", "errorCode"), status),
		Message:    item.str("message", "detail", "msg", "title", "description"),
		Field:      genField(item),
	}
	if o.VendorCode == "" && item.has("msg") {
		o.VendorCode = item.code("type") // Pydantic's error type: "missing", "value_error"
	}
	return o, o.Message != "" || o.VendorCode != ""
}

// genRails reads Rails' {"errors": {"email": ["is invalid"]}}: the first
// member names the field and its first string is the message.
func genRails(raw json.RawMessage) (classify.Outcome, bool) {
	field, v, ok := firstMember(raw)
	if !ok || !isCode(field) {
		return classify.Outcome{}, false
	}
	msg := firstItemText(v) // {"email": ["is invalid"]}
	if msg == "" {
		msg = textOf(v) // {"email": "is invalid"}
	}
	if msg == "" {
		return classify.Outcome{}, false
	}
	if !strings.Contains(strings.ToLower(msg), strings.ToLower(field)) {
		msg = field + " " + msg
	}
	return classify.Outcome{Message: gwCut(msg, jsonTextMax), Field: field}, true
}
