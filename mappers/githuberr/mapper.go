package githuberr

import (
	"errors"

	"github.com/google/go-github/v90/github"

	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/translate"
)

// Vendor is upstream.vendor of the errors the mapper reads, and the name
// under which package translate registers GitHub's code table.
const Vendor = "github"

// mapper is the go-github ErrorMapper.
type mapper struct{}

// Mapper returns the mapper of go-github's errors: add it with
// classify.WithErrorMappers, or the middleware's and mcptool's
// WithErrorMappers.
//
// Since toolerr reads the errors of every go-github major version by what
// they carry (translate.Set.ReadSDKError, which the middleware's,
// mcptool's and translate.NewSet's classifiers try after their mappers),
// this mapper is no longer needed; it is kept for services that register
// it, and it reads the same way.
func Mapper() classify.ErrorMapper { return mapper{} }

// MapError reads the first go-github error in err's chain by what it
// carries: a *github.RateLimitError (a primary rate limit), a
// *github.AbuseRateLimitError (a secondary one) or a
// *github.ErrorResponse. An error with none is not the mapper's.
func (mapper) MapError(err error) (classify.Outcome, bool) {
	if rl, ok := errors.AsType[*github.RateLimitError](err); ok && rl != nil {
		return translate.Default().ReadSDKError(rl)
	}
	if al, ok := errors.AsType[*github.AbuseRateLimitError](err); ok && al != nil {
		return translate.Default().ReadSDKError(al)
	}
	if er, ok := errors.AsType[*github.ErrorResponse](err); ok && er != nil {
		return translate.Default().ReadSDKError(er)
	}
	return classify.Outcome{}, false
}
