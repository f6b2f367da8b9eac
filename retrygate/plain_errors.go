package retrygate

import (
	"context"
	"net/http"
	"sync"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/translate"
)

// defaultClassifier classifies the plain Go errors of a Policy with no
// Classifier: the built-in mappers and Go-error rules over the default
// registry, with the vendor code tables of the built-in translators (the
// AWS table reads a DynamoDB throttle, a 400, as a rate limit). Built once
// on first use, only read after.
var defaultClassifier = sync.OnceValue(func() *classify.Classifier { return classifierWith() })

// classifierWith returns a classifier with mappers ms besides the built-in
// ones, and the code tables of the built-in translators registered, as
// the middleware's classifier has them.
func classifierWith(ms ...classify.ErrorMapper) *classify.Classifier {
	set, err := translate.NewSet(nil, translate.WithErrorMappers(ms...))
	if err != nil {
		// The built-in tables name only built-in codes; without them the
		// statuses decide.
		return classify.New(nil, classify.WithErrorMappers(ms...))
	}
	return set.Classifier()
}

// classifyPlain classifies a Go error op returned that holds no
// *toolerr.Error. Do cannot see op's request, so the call counts as one
// that is not idempotent unless the policy says it is: a failure that may
// have run is then not retried. ok is false when no rule knows err.
func classifyPlain(ctx context.Context, p Policy, err error) (*toolerr.Error, bool) {
	c := p.Classifier
	if c == nil {
		c = defaultClassifier()
	}
	method := http.MethodPost
	if p.Idempotent {
		method = http.MethodGet
	}
	e, ok := c.GoError(ctx, err, method, p.Idempotent)
	return e, ok && e != nil
}
