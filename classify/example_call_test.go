package classify_test

import (
	"context"
	"fmt"
	"net"
	"net/http"
	"net/http/httptest"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// call sends req and classifies what came back: nil for a success.
func call(ctx context.Context, reg *toolerr.Registry, client *http.Client, req *http.Request) *toolerr.Error {
	c := classify.New(reg)
	resp, err := client.Do(req)
	if err != nil {
		if e, ok := c.GoError(ctx, err, req.Method, false); ok {
			return e // connection refused, timeouts, DNS, TLS, cancellation
		}
		return reg.New(toolerr.CodeInternal, "").WithCause(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 {
		// 503 → UPSTREAM_UNAVAILABLE, retryable, retry_after_ms from Retry-After (capped at 60 s)
		return c.Classify(ctx, classify.Outcome{Method: req.Method, Status: resp.StatusCode, Header: resp.Header})
	}
	return nil
}

// Classify an outbound call without a translator: the status, its delay
// headers, or the network error decide.
func ExampleClassifier_call() {
	vendor := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "2")
		w.WriteHeader(http.StatusServiceUnavailable)
	}))
	defer vendor.Close()
	dead, _ := net.Listen("tcp", "127.0.0.1:0")
	deadURL := "http://" + dead.Addr().String()
	_ = dead.Close()

	ctx := context.Background()
	reg := toolerr.NewRegistry(toolerr.Default())
	req, _ := http.NewRequest(http.MethodGet, vendor.URL, nil)
	e := call(ctx, reg, vendor.Client(), req)
	fmt.Println(e.Code, e.Retryable, e.RetryAfter)

	req, _ = http.NewRequest(http.MethodGet, deadURL, nil)
	e = call(ctx, reg, http.DefaultClient, req)
	fmt.Println(e.Code, e.Retryable)
	// Output:
	// UPSTREAM_UNAVAILABLE true 2s
	// UPSTREAM_UNAVAILABLE true
}
