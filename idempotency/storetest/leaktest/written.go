package leaktest

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/toolerr/toolerr/idempotency"
)

// WrittenStore is an [idempotency.MemoryStore] that keeps a copy of every
// key, fingerprint and response given to it, for stores that cannot list
// what they hold. Safe for concurrent use.
type WrittenStore struct {
	*idempotency.MemoryStore
	mu      sync.Mutex
	written strings.Builder
}

// NewWrittenStore returns a WrittenStore over a new MemoryStore.
func NewWrittenStore() *WrittenStore {
	return &WrittenStore{MemoryStore: idempotency.NewMemoryStore()}
}

// keep appends parts to what was written.
func (s *WrittenStore) keep(parts ...string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, p := range parts {
		s.written.WriteString(p)
		s.written.WriteByte('\n')
	}
}

// Claim implements [idempotency.Store].
func (s *WrittenStore) Claim(ctx context.Context, key, fp string, lease time.Duration) (idempotency.Claim, error) {
	s.keep(key, fp)
	return s.MemoryStore.Claim(ctx, key, fp, lease)
}

// Complete implements [idempotency.Store].
func (s *WrittenStore) Complete(ctx context.Context, key string, token uint64, resp idempotency.Response, retention time.Duration) error {
	s.keep(key, fmt.Sprint(resp.Status), fmt.Sprint(resp.Header), string(resp.Body))
	return s.MemoryStore.Complete(ctx, key, token, resp, retention)
}

// Written returns everything given to the store, in the form
// [NoSecretStored] takes.
func (s *WrittenStore) Written(*testing.T) string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.written.String()
}
