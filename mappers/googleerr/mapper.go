package googleerr

import (
	"errors"

	"google.golang.org/api/googleapi"

	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/translate"
)

// Vendor is upstream.vendor of the errors the mapper reads, and the name
// under which package translate registers Google's code table.
const Vendor = "google"

// Mapper returns the mapper of googleapi's errors: add it with
// classify.WithErrorMappers, or the middleware's and mcptool's
// WithErrorMappers.
//
// Since toolerr reads the errors of every googleapi major version by what
// they carry (translate.Set.ReadSDKError, which the middleware's, mcptool's
// and translate.NewSet's classifiers try after their mappers), this mapper
// is no longer needed; it is kept for services that register it, and it
// reads the same way.
func Mapper() classify.ErrorMapper { return classify.MapperFunc(mapError) }

// mapError reads the *googleapi.Error in err's chain by what it carries.
func mapError(err error) (classify.Outcome, bool) {
	e, ok := errors.AsType[*googleapi.Error](err)
	if !ok || e == nil {
		return classify.Outcome{}, false
	}
	return translate.Default().ReadSDKError(e)
}
