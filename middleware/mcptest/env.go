package mcptest

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/toolerr/toolerr/translate"
)

// The upstream's request id on Stripe's answer: a plain id, which reaches
// the agent as upstream.request_id.
const stripeRequestID = "req_9Xy7Zq2LmN"

// env is what the tools of one group call: a vendor on a loopback port
// that answers as Stripe does when a card is declined, as a gateway does
// with an HTML page, or not at all until the caller gives up.
type env struct {
	url    string
	client *http.Client
}

// newEnv starts the vendor; it stops when t ends.
func newEnv(t *testing.T) *env {
	t.Helper()
	mux := http.NewServeMux()
	mux.HandleFunc("POST /v1/charges", func(w http.ResponseWriter, _ *http.Request) {
		body := `{"error":{"type":"card_error","code":"card_declined","decline_code":"insufficient_funds","param":"source",` +
			`"message":` + strconv.Quote("Your card was declined. Key "+secretStripe+" on "+internalHost+".") + `,` +
			`"doc_url":"https://stripe.com/docs/error-codes/card-declined"}}`
		w.Header().Set("Request-Id", stripeRequestID)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusPaymentRequired)
		_, _ = io.WriteString(w, body)
	})
	mux.HandleFunc("POST /gateway", func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/html; charset=utf-8")
		w.Header().Set("Server", "nginx ("+internalHost+")")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = io.WriteString(w, htmlPage)
	})
	mux.HandleFunc("POST /slow", func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(runTimeout):
		}
	})
	srv := httptest.NewServer(mux)
	transport := &http.Transport{}
	t.Cleanup(func() {
		transport.CloseIdleConnections()
		srv.Close()
	})
	return &env{url: srv.URL, client: &http.Client{Transport: transport}}
}

// post calls path on the vendor under ctx, as a tool calls its upstream:
// a network error (a deadline, a cancellation) is returned as it is, an
// error answer as translate.Response reads it.
func (e *env) post(ctx context.Context, path string) error {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, e.url+path, nil)
	if err != nil {
		return err
	}
	resp, err := e.client.Do(req)
	if err != nil {
		return err
	}
	defer resp.Body.Close()
	return translate.Response(resp)
}
