package translate

import (
	"encoding/json"
	"math"
	"time"

	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// shopifyMaxThrottle bounds the throttle maths before it becomes a
// Duration; the classifier caps the delay much lower anyway.
const shopifyMaxThrottle = time.Hour

// shopifyGraphQL reads a GraphQL Admin API error body: the first error
// that has a code (else the first error) gives the code, message and
// path; extensions.documentation is the doc_url; a THROTTLED error gets
// its delay from the throttle status; an INTERNAL_SERVER_ERROR is retried
// only when the call is idempotent.
func shopifyGraphQL(r *Raw, g graphQLResponse) classify.Outcome {
	e := g.errors[0]
	for _, candidate := range g.errors {
		if candidate.code != "" {
			e = candidate
			break
		}
	}
	o := classify.Outcome{
		VendorCode: e.code,
		Message:    e.message,
		Field:      e.path,
		RequestID:  e.ext.str("requestId"),
	}
	if o.RequestID == "" {
		o.RequestID = canonheader.Value(r.Header, "X-Request-Id")
	}
	if doc := e.ext.str("documentation"); doc != "" {
		o.Details = map[string]any{"doc_url": doc}
	}
	if e.code == "INTERNAL_SERVER_ERROR" {
		// GraphQL calls are POSTs: a mutation may have run before the
		// failure, so only an idempotent or keyed call is retried.
		o.Evidence.Retry = unknownOutcomeAdvice(r)
	}
	if e.code == "THROTTLED" || e.code == "" && e.message == "Throttled" {
		o.VendorCode = "THROTTLED"
		o.Evidence.RateLimited = true
		o.Delay = shopifyThrottleDelay(g.extensions)
	}
	return o
}

// shopifyThrottleDelay computes how long until the bucket holds the cost
// the throttled query asked for, from the response's
// extensions.cost: (requestedQueryCost − currentlyAvailable) / restoreRate
// seconds, rounded up to a whole millisecond. It is 0 when a member is
// missing or not a number, the rate is not positive, or the bucket already
// holds enough.
func shopifyThrottleDelay(ext json.RawMessage) time.Duration {
	cost := walkObject(ext).obj("cost")
	throttle := cost.obj("throttleStatus")
	req, okReq := cost.number("requestedQueryCost")
	avail, okAvail := throttle.number("currentlyAvailable")
	rate, okRate := throttle.number("restoreRate")
	if !okReq || !okAvail || !okRate || rate <= 0 {
		return 0
	}
	need := req - avail
	if !(need > 0) {
		return 0
	}
	// need/rate seconds in milliseconds; the epsilon keeps an exact result
	// that floating point overshoots by an ulp from rounding up a whole ms.
	ms := math.Ceil(need*1000/rate - 1e-6)
	limit := float64(shopifyMaxThrottle / time.Millisecond)
	if math.IsNaN(ms) || ms > limit {
		ms = limit
	}
	if ms <= 0 {
		return 0
	}
	return time.Duration(ms) * time.Millisecond
}
