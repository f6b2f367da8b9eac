package stripeerr

import (
	"errors"

	"github.com/stripe/stripe-go/v82"

	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/translate"
)

// Vendor is the vendor name of Stripe's errors: upstream.vendor of the
// errors this mapper classifies, and the name under which package
// translate registers Stripe's code table.
const Vendor = "stripe"

// Mapper returns the mapper of stripe-go's errors: add it with
// classify.WithErrorMappers, or the middleware's and mcptool's
// WithErrorMappers.
func Mapper() classify.ErrorMapper { return classify.MapperFunc(mapError) }

// mapError reads the *stripe.Error in err's chain.
func mapError(err error) (classify.Outcome, bool) {
	se, ok := errors.AsType[*stripe.Error](err)
	if !ok || se == nil {
		return classify.Outcome{}, false
	}
	if o, ok := fromResponse(se); ok {
		return o, true
	}
	return fromFields(se), true
}

// fromResponse reads the response the SDK kept, through the Stripe
// translator; ok is false when there is none to read.
func fromResponse(se *stripe.Error) (classify.Outcome, bool) {
	resp := se.LastResponse
	if resp == nil || resp.StatusCode < 400 || len(resp.RawJSON) == 0 {
		return classify.Outcome{}, false
	}
	raw := &translate.Raw{
		Vendor: Vendor,
		Status: resp.StatusCode,
		Header: resp.Header,
		Body:   resp.RawJSON,
		// The key stripe-go sent (it makes one for every write) does not
		// make the tool call idempotent: a repeated call makes a new key.
		// The method is unknown here, so it stays GET for the translator,
		// and an indeterminate api_error is marked below instead.
	}
	o, ok := translate.Default().Translate(raw)
	if !ok || o.Vendor != Vendor {
		return classify.Outcome{}, false
	}
	// Method and idempotency are the classifier's to fill from the call.
	o.Method, o.Idempotent = "", false
	// An api_error is a failure inside Stripe whose outcome Stripe calls
	// indeterminate: without Stripe's word (Stripe-Should-Retry) the call
	// may have run, so it is retried only when the tool call is
	// idempotent, as the translator decides for a request it saw.
	if se.Type == stripe.ErrorTypeAPI && resp.Header.Get("Stripe-Should-Retry") == "" {
		o.UnknownOutcome = true
	}
	if o.RequestID == "" {
		o.RequestID = firstNonEmpty(se.RequestID, resp.RequestID)
	}
	return o, true
}

// fromFields reads the error's own fields, for an error that carries no
// response: error.code, else error.type, as the vendor code, and the
// decline code as the finer class.
func fromFields(se *stripe.Error) classify.Outcome {
	o := classify.Outcome{
		Vendor:     Vendor,
		VendorCode: string(se.Code),
		ClassCode:  string(se.DeclineCode),
		Status:     se.HTTPStatusCode,
		Message:    se.Msg,
		Field:      se.Param,
		RequestID:  se.RequestID,
	}
	if o.VendorCode == "" {
		o.VendorCode = string(se.Type)
		o.GenericCode = se.Type == stripe.ErrorTypeInvalidRequest
	}
	details := map[string]any{}
	if se.DocURL != "" {
		details["doc_url"] = se.DocURL
	}
	if len(details) > 0 {
		o.Details = details
	}
	return o
}

// firstNonEmpty returns the first of vs that is not empty.
func firstNonEmpty(vs ...string) string {
	for _, v := range vs {
		if v != "" {
			return v
		}
	}
	return ""
}
