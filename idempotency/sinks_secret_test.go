package idempotency_test

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/storetest/leaktest"
	"github.com/toolerr/toolerr/internal/leakprobe"
)

// TestStoredResponseHoldsNoSecret: a tool that fails with secrets, behind
// middleware.New and the idempotency middleware, leaves none in the
// memory store.
func TestStoredResponseHoldsNoSecret(t *testing.T) {
	store := leaktest.NewWrittenStore()
	leaktest.NoSecretStored(t, store, store.Written)
}

// TestStoredFailureWithoutMiddlewareHoldsNoSecret: idempotency.Middleware
// mounted alone (no request scope) redacts a failure body with a default
// sanitizer's secret stage, keeping its shape, and stores a success body,
// the tool's result, byte for byte.
func TestStoredFailureWithoutMiddlewareHoldsNoSecret(t *testing.T) {
	quiet := slog.New(slog.DiscardHandler)
	for _, tc := range []struct {
		status int
		secret bool // the stored body may hold the probe: a tool's own result
	}{{http.StatusPaymentRequired, false}, {http.StatusCreated, true}} {
		store := leaktest.NewWrittenStore()
		body := `{"message":"` + leakprobe.Sentence() + `"}`
		h := idempotency.Middleware(store, idempotency.WithLogger(quiet))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(tc.status)
			_, _ = io.WriteString(w, body)
		}))
		req := httptest.NewRequest(http.MethodPost, "/tools/create_api_key", strings.NewReader(`{}`))
		req.Header.Set("Idempotency-Key", "op-1")
		req.Header.Set("Authorization", "Bearer agent-1")
		h.ServeHTTP(httptest.NewRecorder(), req)
		all := store.Written(t)
		if tc.secret {
			assert.Contains(t, all, body, "a success is the tool's result, stored as written")
			continue
		}
		leaked, mark := leakprobe.Find([]byte(all))
		assert.Empty(t, leaked, "the store holds %q: %s", mark, all)
		assert.Contains(t, all, `{"message":"request failed; stripe live key [REDACTED`, "the failure keeps its shape")
	}
}
