package translate

import "github.com/toolerr/toolerr/classify"

// Translator reads the error responses of one vendor, one gateway or one
// generic format. Implementations must be safe for concurrent use, must not
// panic on any input, and must do work bounded by the size of the body.
type Translator interface {
	// Vendor names the vendor ("stripe"): the scope of its codes in the
	// classifier and the upstream.vendor of its errors. Generic translators
	// return "".
	Vendor() string
	// Hosts lists the vendor's API host suffixes ("api.stripe.com",
	// ".amazonaws.com"); a request host matches a suffix when it equals it
	// or ends with it after a dot.
	Hosts() []string
	// Recognizes reports whether r, whose host is unknown, is this
	// vendor's: by a vendor header (Stripe's Request-Id: req_…,
	// x-amzn-RequestId) or by the shape of its body. It must be cheap and
	// must not claim other vendors' responses.
	Recognizes(r *Raw) bool
	// Translate reads r into an outcome: the vendor code, message, field,
	// vendor request id, a delay written in the body, evidence and details.
	// The Set fills Method, Status, Header, Vendor and Idempotent. ok is
	// false when r is not an error in this translator's format; for a 2xx
	// that means it is a success.
	Translate(r *Raw) (o classify.Outcome, ok bool)
	// Codes maps the vendor's error codes to toolerr codes. The Set
	// registers the table with its classifier.
	Codes() map[string]string
}

// Vendor is a Translator built from functions, for an in-house API in a
// few lines:
//
//	billing := &translate.Vendor{
//		Name:      "billing",
//		HostNames: []string{"billing.example.com"},
//		Parse: func(r *translate.Raw) (classify.Outcome, bool) {
//			var body struct {
//				Code    string `json:"code"`
//				Message string `json:"message"`
//				Field   string `json:"field"`
//			}
//			if json.Unmarshal(r.Body, &body) != nil || body.Code == "" {
//				return classify.Outcome{}, false
//			}
//			return classify.Outcome{VendorCode: body.Code, Message: body.Message, Field: body.Field}, true
//		},
//		CodeTable: map[string]string{
//			"ACCOUNT_FROZEN": toolerr.CodePolicyBlocked,
//			"BAD_AMOUNT":     toolerr.CodeValidationFailed,
//		},
//	}
//
// A nil Recognize never claims a response of unknown host; a nil Parse
// never translates.
type Vendor struct {
	Name      string
	HostNames []string
	Recognize func(*Raw) bool
	Parse     func(*Raw) (classify.Outcome, bool)
	CodeTable map[string]string
}

// Vendor returns v.Name.
func (v *Vendor) Vendor() string { return v.Name }

// Hosts returns v.HostNames.
func (v *Vendor) Hosts() []string { return v.HostNames }

// Recognizes calls v.Recognize.
func (v *Vendor) Recognizes(r *Raw) bool { return v.Recognize != nil && v.Recognize(r) }

// Translate calls v.Parse.
func (v *Vendor) Translate(r *Raw) (classify.Outcome, bool) {
	if v.Parse == nil {
		return classify.Outcome{}, false
	}
	return v.Parse(r)
}

// Codes returns v.CodeTable.
func (v *Vendor) Codes() map[string]string { return v.CodeTable }
