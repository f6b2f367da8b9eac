package idempotency_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/storetest/leaktest"
	"github.com/toolerr/toolerr/internal/leakprobe"
)

// writtenStore is a MemoryStore that keeps a copy of every byte given to
// it: the MemoryStore has no way to list its records, and this is the
// sink the tests search for planted secrets.
type writtenStore struct {
	*idempotency.MemoryStore
	mu      sync.Mutex
	written strings.Builder
}

func (s *writtenStore) keep(parts ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range parts {
		s.written.WriteString(p)
		s.written.WriteByte('\n')
	}
}

// Claim implements idempotency.Store.
func (s *writtenStore) Claim(ctx context.Context, key, fp string, lease time.Duration) (idempotency.Claim, error) {
	s.keep(key, fp)
	return s.MemoryStore.Claim(ctx, key, fp, lease)
}

// Complete implements idempotency.Store.
func (s *writtenStore) Complete(ctx context.Context, key string, token uint64, resp idempotency.Response, retention time.Duration) error {
	s.keep(key, fmt.Sprint(resp.Status), fmt.Sprint(resp.Header), string(resp.Body))
	return s.MemoryStore.Complete(ctx, key, token, resp, retention)
}

// all returns everything written to the store.
func (s *writtenStore) all(*testing.T) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.written.String()
}

// TestStoredResponseHoldsNoSecret: a tool that fails with secrets, behind
// middleware.New and the idempotency middleware, leaves none in the
// memory store.
func TestStoredResponseHoldsNoSecret(t *testing.T) {
	store := &writtenStore{MemoryStore: idempotency.NewMemoryStore()}
	leaktest.NoSecretStored(t, store, store.all)
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
		store := &writtenStore{MemoryStore: idempotency.NewMemoryStore()}
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
		all := store.all(t)
		if tc.secret {
			assert.Contains(t, all, body, "a success is the tool's result, stored as written")
			continue
		}
		leaked, mark := leakprobe.Find([]byte(all))
		assert.Empty(t, leaked, "the store holds %q: %s", mark, all)
		assert.Contains(t, all, `{"message":"request failed; stripe live key [REDACTED`, "the failure keeps its shape")
	}
}
