package retrygate_test

import (
	"context"
	"fmt"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/retrygate"
)

// A flaky downstream fails twice with a transient error and then answers;
// a validation error is never retried.
func ExampleDo() {
	p := retrygate.DefaultPolicy()
	p.InitialInterval = 0 // no waits in the example; keep the default in real code
	p.OnRetry = func(ev retrygate.RetryEvent) {
		te, _ := toolerr.From(ev.Err)
		fmt.Println("retry after attempt", ev.Attempt, te.Code)
	}
	p.OnGiveUp = func(ev retrygate.GiveUpEvent) {
		fmt.Println("gave up:", ev.Reason)
	}

	calls := 0
	err := retrygate.Do(context.Background(), p, func(ctx context.Context) error {
		calls++
		if calls < 3 {
			return toolerr.Default().New(toolerr.CodeUpstreamUnavailable, "The orders service is unavailable.")
		}
		return nil
	})
	fmt.Println("err:", err, "calls:", calls)

	err = retrygate.Do(context.Background(), p, func(ctx context.Context) error {
		return toolerr.Default().New(toolerr.CodeValidationFailed, "limit must be at most 100.").WithField("limit")
	})
	te, _ := toolerr.From(err)
	fmt.Println(te.Code, "after", retrygate.Attempts(err), "attempt")
	// Output:
	// retry after attempt 1 UPSTREAM_UNAVAILABLE
	// retry after attempt 2 UPSTREAM_UNAVAILABLE
	// err: <nil> calls: 3
	// gave up: not_retryable
	// VALIDATION_FAILED after 1 attempt
}
