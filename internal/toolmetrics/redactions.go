package toolmetrics

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/toolerr/toolerr/middleware/sanitize"
)

// redactionKinds are the sanitizer's kinds counted as redactions: what
// must not leak (secrets, payment and personal data, internal hosts and
// private addresses) and what an agent has no use for (stack traces, HTML
// pages).
var redactionKinds = [...]sanitize.Kind{
	sanitize.KindSecret, sanitize.KindPayment, sanitize.KindPersonalData,
	sanitize.KindInternalHost, sanitize.KindPrivateIP,
	sanitize.KindStackTrace, sanitize.KindHTML,
}

// redactionOptions are the counter options of each of redactionKinds.
type redactionOptions [len(redactionKinds)][]metric.AddOption

func newRedactionOptions() *redactionOptions {
	var o redactionOptions
	for i, k := range redactionKinds {
		o[i] = []metric.AddOption{metric.WithAttributeSet(attribute.NewSet(KeyRedactionKind.String(k.String())))}
	}
	return &o
}

// Sanitized counts what one sanitizer report removed: each redaction by
// kind, and a text cut to the output cap (or past the input cap) as one
// truncated observation. Its type fits [sanitize.Sanitizer.Observed].
func (s *Set) Sanitized(rep sanitize.Report) {
	ctx := context.Background()
	for i, k := range redactionKinds {
		if n := rep.Count(k); n > 0 {
			s.redactions.Add(ctx, int64(n), s.redactionOpts[i]...)
		}
	}
	if rep.Count(sanitize.KindTruncated) > 0 || rep.Count(sanitize.KindInputCapped) > 0 {
		s.Truncated(ctx, StageText)
	}
}
