package middleware_test

import (
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"time"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/middleware"
)

// RateLimitError stands for a vendor SDK's typed rate-limit error, with
// the delay the SDK read.
type RateLimitError struct{ RetryAfter time.Duration }

// Error describes the error.
func (*RateLimitError) Error() string { return "acme: rate limited" }

// A service whose tools call an SDK teaches the middleware that SDK's
// typed errors with one mapper.
func ExampleWithErrorMappers() {
	mux := http.NewServeMux()
	mux.Handle("POST /tools/sync", middleware.Tool("sync", func(http.ResponseWriter, *http.Request) error {
		return fmt.Errorf("sync: %w", &RateLimitError{RetryAfter: 3 * time.Second})
	}))

	acme := classify.MapperFunc(func(err error) (classify.Outcome, bool) {
		var limited *RateLimitError // your SDK's typed error
		if !errors.As(err, &limited) {
			return classify.Outcome{}, false
		}
		return classify.Outcome{Vendor: "acme", Status: http.StatusTooManyRequests, Delay: limited.RetryAfter}, true
	})
	handler := middleware.New(middleware.WithErrorMappers(acme))(mux)

	rec := httptest.NewRecorder()
	handler.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/tools/sync", nil))
	e, _ := toolerr.Parse(rec.Body.Bytes())
	fmt.Println(rec.Code, e.Code, e.Retryable, e.RetryAfter)
	// Output: 429 RATE_LIMITED true 3s
}
