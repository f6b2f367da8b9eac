package retrygate_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"time"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/retrygate"
	"github.com/toolerr/toolerr/translate"
)

// Handler is the package documentation's tool handler, compiled.
type Handler struct {
	base      string
	client    *http.Client
	translate *translate.Set
}

// newDocClient builds the documented clients.
func newDocClient(logger *slog.Logger) (*http.Client, *http.Client) {
	policy := retrygate.DefaultPolicy() // with a budget of its own
	policy.OnGiveUp = func(ev retrygate.GiveUpEvent) {
		logger.Warn("vendor call failed", "attempts", ev.Attempts, "reason", ev.Reason, "err", ev.Err)
	}
	client := &http.Client{Transport: retrygate.Transport(nil, retrygate.WithPolicy(policy))}

	readme := func() *http.Client {
		// One Transport per downstream client: its budget and breakers are shared by all its calls.
		client := &http.Client{Transport: retrygate.Transport(nil)}
		return client
	}
	return client, readme()
}

func (h *Handler) SearchOrders(w http.ResponseWriter, r *http.Request) {
	ctx, cancel := context.WithTimeout(r.Context(), 20*time.Second)
	defer cancel()
	q := r.URL.Query().Get("q")
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, h.base+"/v1/orders?q="+url.QueryEscape(q), nil)
	resp, err := h.client.Do(req)
	if err != nil {
		// No response arrived, or the breaker is open: err wraps a
		// *retrygate.Error around a *toolerr.Error (UPSTREAM_TIMEOUT,
		// CIRCUIT_OPEN, RETRY_BUDGET_EXHAUSTED, ...), rendered as is.
		toolerr.Write(w, r, err)
		return
	}
	defer resp.Body.Close()
	// Any HTTP response comes back as the vendor sent it, after the
	// last attempt; classify a failure for the agent.
	if err := h.translate.Response(resp); err != nil {
		toolerr.Write(w, r, err)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.Copy(w, resp.Body)
}

var _ = newDocClient
