package retrygate_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"time"

	"github.com/toolerr/toolerr/retrygate"
)

// A tool handler's HTTP client retries a vendor's passing 503 by itself;
// the caller sees the final response.
func ExampleTransport() {
	var seen atomic.Int32
	vendor := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		if seen.Add(1) == 1 {
			http.Error(w, "busy", http.StatusServiceUnavailable)
			return
		}
		fmt.Fprint(w, "ok")
	}))
	defer vendor.Close()

	p := retrygate.DefaultPolicy()
	p.InitialInterval = 10 * time.Millisecond // keep the example quick
	client := &http.Client{Transport: retrygate.Transport(nil, retrygate.WithPolicy(p))}

	resp, err := client.Get(vendor.URL)
	if err != nil {
		fmt.Println("error:", err)
		return
	}
	defer resp.Body.Close()
	fmt.Println("status:", resp.StatusCode)
	fmt.Println("attempts the server saw:", seen.Load())
	// Output:
	// status: 200
	// attempts the server saw: 2
}
