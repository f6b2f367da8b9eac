package main

import (
	"context"
	"encoding/json"
	"errors"
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

// answer is what the agent got from a call.
type answer struct {
	status int
	code   string // the toolerr code of an error, else ""
	body   string
}

// call posts body to the tool with the headers given as name, value
// pairs.
func (a agent) call(ctx context.Context, tool, body string, header ...string) (answer, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.base+"/tools/"+tool, strings.NewReader(body))
	if err != nil {
		return answer{}, err
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer agent-7")
	for i := 0; i+1 < len(header); i += 2 {
		req.Header.Set(header[i], header[i+1])
	}
	resp, err := a.client.Do(req)
	if err != nil {
		return answer{}, err
	}
	b, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	if err := errors.Join(err, resp.Body.Close()); err != nil {
		return answer{}, err
	}
	got := answer{status: resp.StatusCode, body: string(b)}
	if resp.StatusCode >= 400 {
		var problem struct {
			Code string `json:"code"`
		}
		if err := json.Unmarshal(b, &problem); err != nil {
			return got, err
		}
		got.code = problem.Code
	}
	return got, nil
}

// expect calls the tool and fails the test when the status is not
// want.
func (a agent) expect(t *testing.T, want int, tool, body string, header ...string) answer {
	t.Helper()
	got, err := a.call(t.Context(), tool, body, header...)
	if err != nil {
		t.Errorf("%s %s: %v", tool, body, err)
		return got
	}
	if got.status != want {
		t.Errorf("%s %s %v: status %d, want %d", tool, body, header, got.status, want)
	}
	if strings.Contains(got.body, leakedKey) {
		t.Errorf("%s %s: the vendor's key reached the agent: %s", tool, body, got.body)
	}
	return got
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
func (a agent) everything(t *testing.T, vendor *fakeVendor) {
	t.Helper()
	var wg sync.WaitGroup
	wg.Go(func() {
		for range 3 {
			a.expect(t, http.StatusServiceUnavailable, "track_shipment", `{"id":"leaky-page"}`)
			a.expect(t, http.StatusBadGateway, "track_shipment", `{"id":"leaky-text"}`)
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
	var mu sync.Mutex
	quoteCodes := map[string]int{}
	// A vendor that fails three calls in four: each failure retried
	// (a success in between ends the handoff that would send the next
	// one once), until the budget refuses; too few failures for the
	// breaker.
	const failing, attempts = 8, 3 // the policy's MaxAttempts
	before := vendor.down.Load()
	for range failing {
		got := a.expect(t, http.StatusServiceUnavailable, "get_quote", `{"id":"`+quoteDown+`"}`)
		quoteCodes[got.code]++
		a.expect(t, http.StatusOK, "get_quote", `{"id":"q1"}`)
	}
	// A refused retry shows only in the vendor's count: the Transport
	// returns the last response, whose code is the vendor's.
	if sent := vendor.down.Load() - before; sent >= failing*attempts {
		t.Errorf("the vendor got %d calls for %d failing ones: the budget refused no retry", sent, failing)
	}
	// Then a vendor that is down: the breaker opens.
	for range 4 {
		wg.Go(func() {
			for range 10 {
				// 503 after retries, then RETRY_BUDGET_EXHAUSTED, then CIRCUIT_OPEN: all 503.
				got := a.expect(t, http.StatusServiceUnavailable, "get_quote", `{"id":"`+quoteDown+`"}`)
				mu.Lock()
				quoteCodes[got.code]++
				mu.Unlock()
			}
		})
	}
	wg.Wait()
	// The traffic the retrygate panels show: the breaker opened.
	for _, code := range []string{"UPSTREAM_UNAVAILABLE", "CIRCUIT_OPEN"} {
		if quoteCodes[code] == 0 {
			t.Errorf("no get_quote call answered %s: %v", code, quoteCodes)
		}
	}
}
