package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// fakeVendor is the downstream the tools call, on a loopback port. Its
// answers are what real vendors send: a Stripe error with a code no
// table maps, a teapot's plain text, a proxy's HTML page too long to
// keep whole with a leaked key in it, a quote service down, or a quote.
type fakeVendor struct {
	srv  *httptest.Server
	down atomic.Int64 // calls of /v1/quotes/down received, retries included
}

// leakedKey is a live-looking Stripe key the vendor leaks in its errors.
const leakedKey = "sk_live_51HqLyjWDarjtT1zdp7dcXBQ5"

// quoteDown makes /v1/quotes/down answer 503 and the rest a quote.
const quoteDown = "down"

// newFakeVendor starts the vendor; it stops when the test ends.
func newFakeVendor(t *testing.T) *fakeVendor {
	t.Helper()
	v := &fakeVendor{}
	v.srv = httptest.NewServer(http.HandlerFunc(v.serve))
	t.Cleanup(v.srv.Close)
	return v
}

// serve answers by path.
func (v *fakeVendor) serve(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/v1/track/stripe-unknown-code":
		// Stripe's shape and headers, with a code Stripe's table does
		// not know: counted as unmapped for vendor stripe.
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Request-Id", "req_Zq7Ux3Vb1Nm0Pl")
		w.Header().Set("Stripe-Version", "2024-06-20")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, `{"error":{"code":"ledger_rebalancing","message":"The ledger is rebalancing.","type":"api_error"}}`)
	case "/v1/track/teapot":
		// A status and a body nothing maps: UPSTREAM_UNCLASSIFIED.
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusTeapot)
		_, _ = io.WriteString(w, "short and stout")
	case "/v1/track/leaky-page":
		// A debug page longer than the middleware's capture cap, with a
		// live-looking key in it: truncated and redacted.
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = io.WriteString(w, "<html><body><h1>502 Bad Gateway</h1><pre>upstream auth "+leakedKey+" failed at db-7.internal.corp\n"+
			strings.Repeat("<p>retrying upstream connection</p>\n", 3000)+"</pre></body></html>")
	case "/v1/track/leaky-text":
		// A short error text with a key and an internal address in it:
		// the detail the agent reads, redacted.
		w.Header().Set("Content-Type", "text/plain")
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, "auth failed for key "+leakedKey+" at 10.0.3.7:5432")
	case "/v1/quotes/" + quoteDown:
		v.down.Add(1)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusServiceUnavailable)
		_, _ = io.WriteString(w, `{"error":{"message":"service unavailable"}}`)
	default:
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"q_1","amount":1200,"currency":"eur"}`)
	}
}
