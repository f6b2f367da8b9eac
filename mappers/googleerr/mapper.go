package googleerr

import (
	"encoding/json"
	"errors"
	"net/http"

	"google.golang.org/api/googleapi"

	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/translate"
)

// Vendor is upstream.vendor of the errors the mapper reads, and the name
// under which package translate registers Google's code table.
const Vendor = "google"

// mapper is the Google API client's ErrorMapper.
type mapper struct{}

// Mapper returns the mapper of the Google API Go client's errors: add it
// with classify.WithErrorMappers, or the middleware's and mcptool's
// WithErrorMappers.
func Mapper() classify.ErrorMapper { return mapper{} }

// MapError reads the *googleapi.Error in err's chain. An error with none
// is not the mapper's.
func (mapper) MapError(err error) (classify.Outcome, bool) {
	ge, ok := errors.AsType[*googleapi.Error](err)
	if !ok || ge == nil {
		return classify.Outcome{}, false
	}
	return read(ge), true
}

// envelope is a Google error body built again from a *googleapi.Error
// that kept none.
type envelope struct {
	Error struct {
		Code    int                   `json:"code"`
		Message string                `json:"message,omitempty"`
		Errors  []googleapi.ErrorItem `json:"errors,omitempty"`
		Details []any                 `json:"details,omitempty"`
	} `json:"error"`
}

// read classifies ge by translate's Google rules: its status (Code), its
// headers and the body it kept, cut at translate's body cap.
func read(ge *googleapi.Error) classify.Outcome {
	fallback := classify.Outcome{Vendor: Vendor, Status: ge.Code, Header: ge.Header, Message: ge.Message}
	if len(ge.Errors) > 0 {
		fallback.VendorCode = ge.Errors[0].Reason
	}
	set := translate.Default()
	if ge.Code < 400 {
		return fallback
	}
	body := []byte(ge.Body)
	if len(body) == 0 {
		var env envelope
		env.Error.Code, env.Error.Message, env.Error.Errors, env.Error.Details = ge.Code, ge.Message, ge.Errors, ge.Details
		b, err := json.Marshal(env)
		if err != nil {
			return fallback
		}
		body = b
	}
	truncated := len(body) > translate.DefaultBodyCap
	if truncated {
		body = body[:translate.DefaultBodyCap]
	}
	raw := func(method string) *translate.Raw {
		return &translate.Raw{Method: method, Vendor: Vendor, Status: ge.Code, Header: ge.Header, Body: body, Truncated: truncated}
	}
	o, ok := set.Translate(raw(""))
	if !ok {
		return fallback
	}
	// The rules advise against retrying a failure that may have run only
	// for a call that is not idempotent; the mapper does not know the
	// call, so it asks the rules as for a POST and leaves the decision to
	// the classifier, which does.
	if post, _ := set.Translate(raw(http.MethodPost)); post.Evidence.Retry != o.Evidence.Retry {
		o.UnknownOutcome = true
	}
	o.Vendor = Vendor
	return o
}
