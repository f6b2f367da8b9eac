package anthropicerr

import (
	"errors"

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
//
// Since toolerr reads the errors of every anthropic-sdk-go major version by what
// they carry (translate.Set.ReadSDKError, which the middleware's, mcptool's
// and translate.NewSet's classifiers try after their mappers), this mapper
// is no longer needed; it is kept for services that register it, and it
// reads the same way.
func Mapper() classify.ErrorMapper { return classify.MapperFunc(mapError) }

// mapError reads the *anthropic.Error in err's chain by what it carries.
func mapError(err error) (classify.Outcome, bool) {
	e, ok := errors.AsType[*anthropic.Error](err)
	if !ok || e == nil {
		return classify.Outcome{}, false
	}
	return translate.Default().ReadSDKError(e)
}
