package openaierr

import (
	"errors"
	"net/http"

	"github.com/openai/openai-go/v3"

	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/translate"
)

// Vendor is the vendor name of OpenAI's errors: upstream.vendor of the
// errors this mapper classifies, and the name under which package
// translate registers OpenAI's code table.
const Vendor = "openai"

// Mapper returns the mapper of openai-go's errors: add it with
// classify.WithErrorMappers, or the middleware's and mcptool's
// WithErrorMappers.
func Mapper() classify.ErrorMapper { return classify.MapperFunc(mapError) }

// mapError reads the *openai.Error in err's chain.
func mapError(err error) (classify.Outcome, bool) {
	oe, ok := errors.AsType[*openai.Error](err)
	if !ok || oe == nil {
		return classify.Outcome{}, false
	}
	var header http.Header
	if oe.Response != nil {
		header = oe.Response.Header
	}
	if o, ok := fromResponse(oe, header); ok {
		return o, true
	}
	return fromFields(oe, header), true
}

// fromResponse reads the error object the SDK kept, inside the body shape
// OpenAI sends, through the OpenAI translator; ok is false when there is
// nothing to read.
func fromResponse(oe *openai.Error, header http.Header) (classify.Outcome, bool) {
	errObj := oe.RawJSON()
	if oe.StatusCode < 400 || errObj == "" {
		return classify.Outcome{}, false
	}
	raw := &translate.Raw{
		Vendor: Vendor,
		Status: oe.StatusCode,
		Header: header,
		Body:   []byte(`{"error":` + errObj + `}`),
	}
	if oe.Request != nil {
		raw.Method = oe.Request.Method
	}
	o, ok := translate.Default().Translate(raw)
	if !ok || o.Vendor != Vendor {
		return classify.Outcome{}, false
	}
	// Method and idempotency are the classifier's to fill from the call.
	o.Method, o.Idempotent = "", false
	return o, true
}

// fromFields reads the error's own fields, for an error that carries no
// error object: error.code, else error.type, as the vendor code. The
// catch-all invalid_request_error is left to the status, as the
// translator leaves it.
func fromFields(oe *openai.Error, header http.Header) classify.Outcome {
	o := classify.Outcome{
		Vendor:     Vendor,
		VendorCode: oe.Code,
		Status:     oe.StatusCode,
		Header:     header,
		Message:    oe.Message,
		Field:      oe.Param,
		RequestID:  header.Get("X-Request-Id"),
	}
	if o.VendorCode == "" && oe.Type != "invalid_request_error" {
		o.VendorCode = oe.Type
	}
	return o
}
