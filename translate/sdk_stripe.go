package translate

import (
	"cmp"

	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// stripeVendor is the vendor name of Stripe's errors.
const stripeVendor = "stripe"

// readStripe reads a stripe-go error (*stripe.Error, and the v2 API's
// typed errors, any major): the last response the SDK kept, through the
// Stripe translator, else the error's own fields. ok is false for a type
// that has neither (a *stripe.CardError, which only wraps a *stripe.Error).
func (s *Set) readStripe(_ error, f sdkFields) (classify.Outcome, bool) {
	typ := f.str("Type")
	if resp, ok := f.sub("LastResponse"); ok {
		header := resp.header("Header")
		// The key stripe-go sent (it makes one for every write) does not
		// make the tool call idempotent: a repeated call makes a new key.
		// The method is unknown here, so the translator reads it as a GET,
		// and an indeterminate api_error is marked below instead.
		r := &Raw{Status: resp.int("StatusCode"), Header: header, Body: resp.bytes("RawJSON")}
		if o, ok := s.translateKept(stripeVendor, "", r); ok && o.Vendor == stripeVendor {
			// An api_error is a failure inside Stripe whose outcome Stripe
			// calls indeterminate: without Stripe's word
			// (Stripe-Should-Retry) the call may have run, so it is
			// retried only when the tool call is idempotent, as the
			// translator decides for a request it saw.
			if typ == "api_error" && canonheader.Value(header, "Stripe-Should-Retry") == "" {
				o.UnknownOutcome = true
			}
			if o.RequestID == "" {
				o.RequestID = cmp.Or(f.str("RequestID"), resp.str("RequestID"))
			}
			return o, true
		}
	}
	if !f.has("Type") && !f.has("HTTPStatusCode") {
		return classify.Outcome{}, false
	}
	return stripeFields(f, typ), true
}

// stripeFields reads a Stripe error's own fields, for an error that
// carries no response: error.code, else error.type, as the vendor code,
// and the decline code as the finer class.
func stripeFields(f sdkFields, typ string) classify.Outcome {
	o := classify.Outcome{
		Vendor:     stripeVendor,
		VendorCode: f.str("Code"),
		ClassCode:  f.str("DeclineCode"),
		Status:     f.int("HTTPStatusCode"),
		Message:    cmp.Or(f.str("Msg"), f.str("Message")),
		Field:      f.str("Param"),
		RequestID:  f.str("RequestID"),
	}
	if o.VendorCode == "" {
		o.VendorCode = typ
		o.GenericCode = typ == "invalid_request_error"
	}
	if doc := f.str("DocURL"); doc != "" {
		o.Details = map[string]any{"doc_url": doc}
	}
	return o
}
