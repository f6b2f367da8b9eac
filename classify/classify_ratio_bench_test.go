package classify

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"testing"
	"time"
)

// ratioBatch is how many classifications of each kind one round times.
const ratioBatch = 64

// BenchmarkTypedToBareRatio times classifying each typed error and a bare
// status in alternating batches of the same loop, so that the machine's
// drifting load weighs on both alike, and reports the ratio of their
// times: the budget for a typed error is 2× a bare status. ns/op
// is one round (a batch of each); the per-call times are reported as
// metrics.
func BenchmarkTypedToBareRatio(b *testing.B) {
	c := benchClassifier(b)
	ctx := context.Background()
	bare := Outcome{Method: http.MethodPost, Status: http.StatusConflict}
	typed := map[string]error{
		"sql_no_rows":  fmt.Errorf("load order: %w", sql.ErrNoRows),
		"sqlstate":     fmt.Errorf("create user: %w", &pgError{code: "23505"}),
		"aws_throttle": fmt.Errorf("get item: %w", &apiError{code: "ThrottlingException", msg: "Rate exceeded"}),
	}
	for name, err := range typed {
		b.Run(name, func(b *testing.B) {
			var tBare, tTyped time.Duration
			for b.Loop() {
				t0 := time.Now()
				for range ratioBatch {
					_ = c.Classify(ctx, bare)
				}
				t1 := time.Now()
				for range ratioBatch {
					_, _ = c.HandlerError(ctx, err, http.MethodGet, false)
				}
				t2 := time.Now()
				tBare += t1.Sub(t0)
				tTyped += t2.Sub(t1)
			}
			calls := float64(b.N * ratioBatch)
			b.ReportMetric(float64(tBare.Nanoseconds())/calls, "bare-ns/call")
			b.ReportMetric(float64(tTyped.Nanoseconds())/calls, "typed-ns/call")
			b.ReportMetric(float64(tTyped)/float64(tBare), "typed/bare")
		})
	}
}
