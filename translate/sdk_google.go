package translate

import (
	"encoding/json"
	"net/http"
	"reflect"

	"github.com/toolerr/toolerr/classify"
)

// googleVendor is the vendor name of Google APIs' errors.
const googleVendor = "google"

// googleSDKBody is Google's error envelope, encoded again from a
// *googleapi.Error that kept no body.
type googleSDKBody struct {
	Error struct {
		Code    int    `json:"code"`
		Message string `json:"message,omitempty"`
		Errors  any    `json:"errors,omitempty"`
		Details any    `json:"details,omitempty"`
	} `json:"error"`
}

// readGoogle reads a *googleapi.Error: its status, headers and the body
// it kept (else its decoded fields encoded again), through the Google
// translator. The first error item's reason is the vendor code when the
// translator does not read the body.
func (s *Set) readGoogle(e error, f sdkFields) (classify.Outcome, bool) {
	if typeName(e) != "Error" || !f.has("Code") || !f.has("Body") {
		return classify.Outcome{}, false
	}
	status, header := f.int("Code"), f.header("Header")
	fallback := classify.Outcome{Vendor: googleVendor, Status: status, Header: header, Message: f.str("Message")}
	if items, ok := f.field("Errors"); ok && items.Kind() == reflect.Slice && items.Len() > 0 {
		if first, ok := fieldsOfValue(items.Index(0)); ok {
			fallback.VendorCode = first.str("Reason")
		}
	}
	body := []byte(f.str("Body"))
	if len(body) == 0 {
		var env googleSDKBody
		env.Error.Code, env.Error.Message = status, fallback.Message
		env.Error.Errors, env.Error.Details = f.value("Errors"), f.value("Details")
		b, err := json.Marshal(env)
		if err != nil {
			return fallback, true
		}
		body = b
	}
	o, ok := s.translateKept(googleVendor, "", &Raw{Status: status, Header: header, Body: body})
	if !ok {
		return fallback, true
	}
	// The rules advise against retrying a failure that may have run only
	// for a call that is not idempotent; the reader does not know the
	// call, so it asks the rules as for a POST as well and leaves the
	// decision to the classifier, which does.
	post, _ := s.translateKept(googleVendor, http.MethodPost, &Raw{Status: status, Header: header, Body: body})
	if post.Evidence.Retry != o.Evidence.Retry {
		o.UnknownOutcome = true
	}
	o.Vendor = googleVendor
	return o, true
}
