package main

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
)

// agent calls the service's tools as an agent runtime would.
type agent struct {
	base   string
	client *http.Client
}

// call posts body to the tool with the headers given as name, value
// pairs, and returns the status.
func (a agent) call(ctx context.Context, tool, body string, header ...string) (int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.base+"/tools/"+tool, strings.NewReader(body))
	if err != nil {
		return 0, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer agent-7")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := a.client.Do(req)
	if err != nil {
		return 0, err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	return resp.StatusCode, resp.Body.Close()
}

// expect calls the tool and fails the test when the status is not want.
func (a agent) expect(t *testing.T, want int, tool, body string, header ...string) {
	t.Helper()
	got, err := a.call(t.Context(), tool, body, header...)
	if err != nil {
		t.Errorf("%s %s: %v", tool, body, err)
		return
	}
	if got != want {
		t.Errorf("%s %s %v: status %d, want %d", tool, body, header, got, want)
	}
}

// unmapped sends n calls whose vendor answers nothing maps.
func (a agent) unmapped(t *testing.T, n int) {
	t.Helper()
	for i := range n {
		id := "teapot"
		if i%2 == 1 {
			id = "stripe-unknown-code"
		}
		a.expect(t, http.StatusBadGateway, "track_shipment", fmt.Sprintf(`{"id":%q}`, id))
	}
}

// everything drives every kind of traffic the dashboard shows: tool
// errors of every side, truncated and redacted vendor pages, idempotency
// replays, conflicts and store failures, and quotes from a vendor that is
// down, retried until the budget refuses and the breaker opens.
func (a agent) everything(t *testing.T) {
	t.Helper()
	var wg sync.WaitGroup
	wg.Go(func() {
		for range 3 {
			a.expect(t, http.StatusServiceUnavailable, "track_shipment", `{"id":"leaky-page"}`)
		}
		for i := range 5 {
			a.expect(t, http.StatusBadRequest, "search_orders", `{"customer":"bob"}`)
			a.expect(t, http.StatusOK, "search_orders", fmt.Sprintf(`{"customer":"cus_%d"}`, i))
		}
	})
	wg.Go(func() {
		a.expect(t, http.StatusCreated, "create_label", `{"to":"Lyon"}`, "Idempotency-Key", "label-1")
		a.expect(t, http.StatusCreated, "create_label", `{"to":"Lyon"}`, "Idempotency-Key", "label-1") // replayed
		a.expect(t, http.StatusUnprocessableEntity, "create_label", `{"to":"Nice"}`, "Idempotency-Key", "label-1")
		a.expect(t, http.StatusCreated, "create_label", `{"to":"Brest"}`)
		a.expect(t, http.StatusConflict, "create_label", `{"to":"Brest"}`) // the duplicate-action guard
		for i := range 8 {
			a.expect(t, http.StatusServiceUnavailable, "book_pickup", `{"at":"09:00"}`, "Idempotency-Key", fmt.Sprintf("pickup-%d", i))
		}
	})
	for range 4 {
		wg.Go(func() {
			for range 10 {
				// 503 after retries, then RETRY_BUDGET_EXHAUSTED, then CIRCUIT_OPEN: all 503.
				a.expect(t, http.StatusServiceUnavailable, "get_quote", `{"id":"`+quoteDown+`"}`)
			}
		})
	}
	wg.Wait()
}
