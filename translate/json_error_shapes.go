package translate

import (
	"encoding/json"
	"strings"

	"github.com/toolerr/toolerr/classify"
)

// The common JSON error shapes, each read into an outcome: an "error"
// object, OAuth's "error" code, an "errors" array or Rails' "errors"
// object, a top-level message or detail.

// commonShapeOf is commonShape for the body of r, whose "error" member r has
// decoded already.
func commonShapeOf(r *Raw, top jsonObject) (classify.Outcome, bool) {
	if e := r.errorObject(); e != nil {
		return readErrorObject(e, r.Status), true
	}
	return commonShape(top, r.Status)
}

// commonShape reads the first shape top matches.
func commonShape(top jsonObject, status int) (classify.Outcome, bool) {
	if e := top.obj("error"); e != nil {
		return readErrorObject(e, status), true
	}
	// {"error": "Bad Request", "message": …}: prose in "error" is a message
	// of last resort; the other members say more.
	prose := top.str("error")
	if isCode(prose) {
		return readOAuthShaped(top, prose, status), true
	}
	if top.has("errors") {
		if item := top.first("errors"); item != nil {
			o, ok := readErrorItem(item, status)
			if o.VendorCode == "" {
				o.VendorCode = dropStatusCode(top.code("code", "error_code", "errorCode"), status)
			}
			return o, ok || o.VendorCode != ""
		}
		if msg := top.firstString("errors"); msg != "" {
			return classify.Outcome{Message: msg, VendorCode: dropStatusCode(top.code("code"), status)}, true
		}
		if o, ok := readRailsErrors(top.get("errors")); ok {
			return o, true
		}
	}
	msg := top.str("message", "msg", "error_message", "errorMessage", "description")
	if msg == "" {
		msg = top.firstString("message")
	}
	code := dropStatusCode(top.code("code", "error_code", "errorCode", "errorType"), status)
	if msg != "" {
		return classify.Outcome{Message: msg, VendorCode: code}, true
	}
	if d := top.str("detail"); d != "" {
		return classify.Outcome{Message: d, VendorCode: code}, true
	}
	if item := top.first("detail"); item != nil {
		return readErrorItem(item, status)
	}
	if code != "" || prose != "" {
		return classify.Outcome{VendorCode: code, Message: prose}, true
	}
	return classify.Outcome{}, false
}

// readErrorObject reads {"error": {…}}: code (or the string status Google
// APIs add when the numeric code repeats the HTTP status, or a type),
// message, field, retry advice.
func readErrorObject(e jsonObject, status int) classify.Outcome {
	code := dropStatusCode(e.code("code", "error_code", "errorCode"), status)
	if code == "" {
		code = e.code("status", "type")
		if isInteger([]byte(code)) {
			code = dropStatusCode(code, status)
		}
	}
	o := classify.Outcome{
		VendorCode: code,
		Message:    e.str("message", "detail", "description", "title", "msg"),
		Field:      offendingField(e),
		Evidence:   classify.Evidence{Retry: retryableAdvice(e)},
		Delay:      bodyDelayMS(e, "retry_after_ms"),
	}
	if id := e.str("request_id", "requestId"); isCode(id) {
		o.RequestID = id
	}
	if o.Field == "" {
		for _, k := range [...]string{"details", "errors"} {
			if item := e.first(k); item != nil {
				o.Field = offendingField(item)
				break
			}
		}
	}
	return o
}

// readOAuthShaped reads an error whose "error" member is a code: OAuth 2.0's
// shape (RFC 6749 §5.2) with a code no OAuth registry holds, "error" the
// code and "error_description" the message.
func readOAuthShaped(top jsonObject, e string, status int) classify.Outcome {
	o := classify.Outcome{Message: top.str("error_description", "message", "detail", "error_message")}
	if o.Message == "" {
		o.Message = top.firstString("message")
	}
	o.VendorCode = dropStatusCode(e, status)
	if o.VendorCode == "" {
		o.VendorCode = dropStatusCode(top.code("code", "error_code"), status)
	}
	if u := docURL(top.str("error_uri")); u != "" {
		o.Details = map[string]any{"doc_url": u}
	}
	return o
}

// readErrorItem reads one entry of an errors array: JSON:API ({"code", "title",
// "detail", "source": {"pointer"}}), FastAPI ({"loc", "msg", "type"}) and
// the plain {"message", "code", "field"}. ok is false when it holds neither
// a message nor a code.
func readErrorItem(item jsonObject, status int) (classify.Outcome, bool) {
	o := classify.Outcome{
		VendorCode: dropStatusCode(item.code("code", "error_code", "errorCode"), status),
		Message:    item.str("message", "detail", "msg", "title", "description"),
		Field:      offendingField(item),
	}
	if o.VendorCode == "" && item.has("msg") {
		o.VendorCode = item.code("type") // Pydantic's error type: "missing", "value_error"
	}
	return o, o.Message != "" || o.VendorCode != ""
}

// readRailsErrors reads Rails' {"errors": {"email": ["is invalid"]}}: the first
// member names the field and its first string is the message.
func readRailsErrors(raw json.RawMessage) (classify.Outcome, bool) {
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
	return classify.Outcome{Message: trimAtWord(msg, jsonTextMax), Field: field}, true
}
