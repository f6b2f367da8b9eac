package anthropicerr

import (
	"errors"
	"net/http"

	"github.com/anthropics/anthropic-sdk-go/v2"

	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/translate"
)

// Vendor is the vendor name of Anthropic's errors: upstream.vendor of the
// errors this mapper classifies, and the name under which package
// translate registers Anthropic's code table.
const Vendor = "anthropic"

// Mapper returns the mapper of anthropic-sdk-go's errors: add it with
// classify.WithErrorMappers, or the middleware's and mcptool's
// WithErrorMappers.
func Mapper() classify.ErrorMapper { return classify.MapperFunc(mapError) }

// mapError reads the *anthropic.Error in err's chain.
func mapError(err error) (classify.Outcome, bool) {
	ae, ok := errors.AsType[*anthropic.Error](err)
	if !ok || ae == nil {
		return classify.Outcome{}, false
	}
	var header http.Header
	if ae.Response != nil {
		header = ae.Response.Header
	}
	if o, ok := fromResponse(ae, header); ok {
		return o, true
	}
	return fromFields(ae, header), true
}

// fromResponse reads the body the SDK kept through the Anthropic
// translator; ok is false when there is nothing to read.
func fromResponse(ae *anthropic.Error, header http.Header) (classify.Outcome, bool) {
	body := ae.RawJSON()
	if ae.StatusCode < 400 || body == "" {
		return classify.Outcome{}, false
	}
	raw := &translate.Raw{
		Vendor: Vendor,
		Status: ae.StatusCode,
		Header: header,
		Body:   []byte(body),
	}
	if ae.Request != nil {
		raw.Method = ae.Request.Method
	}
	o, ok := translate.Default().Translate(raw)
	if !ok || o.Vendor != Vendor {
		return classify.Outcome{}, false
	}
	// Method and idempotency are the classifier's to fill from the call.
	o.Method, o.Idempotent = "", false
	if o.RequestID == "" {
		o.RequestID = ae.RequestID
	}
	return o, true
}

// fromFields reads the error's own fields, for an error that carries no
// body: error.type as the vendor code.
func fromFields(ae *anthropic.Error, header http.Header) classify.Outcome {
	return classify.Outcome{
		Vendor:     Vendor,
		VendorCode: string(ae.Type()),
		Status:     ae.StatusCode,
		Header:     header,
		Message:    ae.Message,
		RequestID:  ae.RequestID,
	}
}
