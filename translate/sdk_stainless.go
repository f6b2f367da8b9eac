package translate

import (
	"cmp"
	"net/http"

	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// stainlessSDK is what differs between two Stainless-generated SDKs.
type stainlessSDK struct {
	vendor string
	// innerBody: the SDK keeps the body's "error" member, not the body
	// (openai-go), so it is wrapped again for the translator.
	innerBody bool
	// catchAllType is a type the vendor sends with many statuses, which
	// the status says better when the error has no code; "" for none.
	catchAllType string
}

var (
	openAISDK    = stainlessSDK{vendor: "openai", innerBody: true, catchAllType: "invalid_request_error"}
	anthropicSDK = stainlessSDK{vendor: "anthropic"}
)

// stainlessReader returns the reader of a Stainless SDK's *Error (its
// internal/apierror package, which the SDK re-exports): StatusCode,
// Request, Response and the raw JSON body, which every major version of
// openai-go and anthropic-sdk-go has kept.
func stainlessReader(sdk stainlessSDK) func(*Set, error, sdkFields) (classify.Outcome, bool) {
	return func(s *Set, e error, f sdkFields) (classify.Outcome, bool) {
		return s.readStainless(sdk, e, f)
	}
}

// readStainless reads a Stainless SDK's error: the raw body through the
// vendor's translator, else the error's own fields.
func (s *Set) readStainless(sdk stainlessSDK, e error, f sdkFields) (classify.Outcome, bool) {
	if !f.has("StatusCode") {
		return classify.Outcome{}, false
	}
	status := f.int("StatusCode")
	resp := f.response("Response")
	if status == 0 && resp != nil {
		status = resp.StatusCode
	}
	var header http.Header
	if resp != nil {
		header = resp.Header
	}
	method := ""
	if req := f.request("Request"); req != nil {
		method = req.Method
	}
	body := stainlessBody(e)
	if sdk.innerBody && body != "" {
		body = `{"error":` + body + `}`
	}
	if o, ok := s.translateKept(sdk.vendor, method, &Raw{Status: status, Header: header, Body: []byte(body)}); ok && o.Vendor == sdk.vendor {
		if o.RequestID == "" {
			o.RequestID = f.str("RequestID")
		}
		return o, true
	}
	typ := cmp.Or(f.str("Type"), stringMethod(e, "Type"))
	o := classify.Outcome{
		Vendor:     sdk.vendor,
		VendorCode: f.str("Code"),
		Status:     status,
		Header:     header,
		Message:    f.str("Message"),
		Field:      f.str("Param"),
		RequestID:  cmp.Or(f.str("RequestID"), canonheader.Value(header, "X-Request-Id")),
	}
	if o.VendorCode == "" && (sdk.catchAllType == "" || typ != sdk.catchAllType) {
		o.VendorCode = typ
	}
	return o, true
}

// stainlessBody returns the raw JSON a Stainless error kept (its RawJSON
// method), or "".
func stainlessBody(e error) string {
	if r, ok := e.(interface{ RawJSON() string }); ok {
		return r.RawJSON()
	}
	return ""
}
