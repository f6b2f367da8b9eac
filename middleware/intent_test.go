package middleware

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// createInvoice records its progress, starts the side effect (counted in
// submitted), records again, then waits until the request is interrupted.
func createInvoice(submitted *atomic.Int32, started chan<- struct{}) http.Handler {
	return Tool("create_invoice", func(w http.ResponseWriter, r *http.Request) error {
		ctx := r.Context()
		toolerr.RecordIntent(ctx, "create_invoice", "inv-123", "validated", "")
		submitted.Add(1) // the side effect: billing now has the invoice
		toolerr.RecordIntent(ctx, "create_invoice", "inv-123",
			"submitted to billing; may be in progress server-side",
			"poll GET /invoices/inv-123 before creating it again")
		close(started)
		<-ctx.Done()
		return ctx.Err()
	})
}

func TestIntentOnClientCancellation(t *testing.T) {
	var submitted atomic.Int32
	started := make(chan struct{})
	ctx, cancel := context.WithCancel(context.Background())
	go func() { <-started; cancel() }()
	rec := httptest.NewRecorder()
	req := httptest.NewRequest("POST", "/tools/create_invoice", nil).WithContext(ctx)
	New(WithLogger(quiet))(createInvoice(&submitted, started)).ServeHTTP(rec, req)

	assert.EqualValues(t, 1, submitted.Load(), "the side effect ran")
	assert.Equal(t, 499, rec.Code)
	m := problem(t, rec.Body.Bytes())
	assert.Equal(t, toolerr.CodeCancelled, m["code"])
	assert.Equal(t, map[string]any{
		"operation":   "create_invoice",
		"resource_id": "inv-123",
		"state":       "submitted to billing; may be in progress server-side",
		"recovery":    "poll GET /invoices/inv-123 before creating it again",
	}, m["intent"])
}

func TestIntentOnDeadline(t *testing.T) {
	var submitted atomic.Int32
	started := make(chan struct{})
	withDeadline := func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			ctx, cancel := context.WithTimeout(r.Context(), 50*time.Millisecond)
			defer cancel()
			next.ServeHTTP(w, r.WithContext(ctx))
		})
	}
	url := serve(t, withDeadline(createInvoice(&submitted, started)))
	resp, body := do(t, "POST", url, nil, `{"amount":100}`)
	assert.Equal(t, 504, resp.StatusCode)
	m := problem(t, body)
	assert.Equal(t, toolerr.CodeToolTimeout, m["code"], "the service's own deadline: a local timeout")
	assert.NotContains(t, m, "upstream")
	require.IsType(t, map[string]any{}, m["intent"])
	assert.Equal(t, "poll GET /invoices/inv-123 before creating it again", m["intent"].(map[string]any)["recovery"])
	assert.Equal(t, false, m["retryable"], "a POST that timed out mid-operation is not blindly retryable")
}

func TestIntentOnDownstreamTimeout(t *testing.T) {
	h := Tool("ship", func(w http.ResponseWriter, r *http.Request) error {
		toolerr.RecordIntent(r.Context(), "create_shipment", "shp-9", "label requested", "GET /shipments/shp-9")
		return fmt.Errorf("carrier: %w", timeoutErr{})
	})
	resp, body := do(t, "POST", serve(t, h), nil, "")
	assert.Equal(t, 504, resp.StatusCode)
	m := problem(t, body)
	assert.Equal(t, toolerr.CodeUpstreamTimeout, m["code"])
	assert.NotNil(t, m["intent"])
}

func TestIntentOnlyOnInterruptions(t *testing.T) {
	h := Tool("ship", func(w http.ResponseWriter, r *http.Request) error {
		toolerr.RecordIntent(r.Context(), "create_shipment", "shp-9", "label requested", "GET /shipments/shp-9")
		return toolerr.Default().New(toolerr.CodeValidationFailed, "weight_kg must be positive.").WithField("weight_kg")
	})
	_, body := do(t, "POST", serve(t, h), nil, "")
	m := problem(t, body)
	assert.Equal(t, toolerr.CodeValidationFailed, m["code"])
	assert.Nil(t, m["intent"], "a validation error is not an interrupted operation")
}
