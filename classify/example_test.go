package classify_test

import (
	"context"
	"fmt"
	"net/http"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// Classify a downstream response: here a 429 with Retry-After, and a vendor
// code that a table maps.
func ExampleClassifier_Classify() {
	c := classify.New(nil)
	_ = c.RegisterVendor("openai", map[string]string{"insufficient_quota": toolerr.CodeQuotaExhausted})

	h := http.Header{}
	h.Set("Retry-After", "3")
	e := c.Classify(context.Background(), classify.Outcome{Method: http.MethodPost, Status: 429, Header: h})
	fmt.Println(e.Code, e.Retryable, e.RetryAfter)

	e = c.Classify(context.Background(), classify.Outcome{Status: 429, Vendor: "openai", VendorCode: "insufficient_quota"})
	fmt.Println(e.Code, e.Retryable, e.Upstream.Code)
	// Output:
	// RATE_LIMITED true 3s
	// QUOTA_EXHAUSTED false insufficient_quota
}

// A timeout leaves the outcome unknown: retryable for a GET, not for a POST
// without an idempotency key.
func ExampleClassifier_GoError() {
	c := classify.New(nil)
	get, _ := c.GoError(context.Background(), context.DeadlineExceeded, http.MethodGet, false)
	post, _ := c.GoError(context.Background(), context.DeadlineExceeded, http.MethodPost, false)
	keyed, _ := c.GoError(context.Background(), context.DeadlineExceeded, http.MethodPost, true)
	fmt.Println(get.Code, get.Retryable, post.Retryable, keyed.Retryable)
	// Output:
	// UPSTREAM_TIMEOUT true false true
}
