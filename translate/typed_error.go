package translate

import "github.com/toolerr/toolerr/classify"

// typedError reads the {"error":{"type","code","message","param"}} body
// that Stripe and OpenAI share: the error object, its type, and an outcome
// with the vendor code (code, else the type unless it is the catch-all
// invalid_request_error, which the status says better), message and field.
func typedError(r *Raw) (e jsonObject, typ string, o classify.Outcome, ok bool) {
	e = r.errorObject()
	if e == nil {
		return nil, "", o, false
	}
	typ, code, msg := e.str("type"), e.code("code"), e.str("message")
	if typ == "" && code == "" && msg == "" {
		return nil, "", o, false
	}
	o = classify.Outcome{VendorCode: code, Message: msg, Field: e.str("param")}
	if o.VendorCode == "" && typ != "invalid_request_error" {
		o.VendorCode = typ
	}
	return e, typ, o, true
}
