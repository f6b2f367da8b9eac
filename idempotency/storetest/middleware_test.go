package storetest_test

import (
	"testing"

	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/storetest"
)

// TestMemorySameKeyAtOnce: 200 goroutines send the same key at once
// through the middleware over the memory store.
func TestMemorySameKeyAtOnce(t *testing.T) {
	storetest.SameKeyAtOnce(t, idempotency.NewMemoryStore(), 200)
}

// BenchmarkMiddlewareMemory measures a first execution and a replay
// through the middleware over the memory store.
func BenchmarkMiddlewareMemory(b *testing.B) {
	storetest.BenchmarkMiddleware(b, idempotency.NewMemoryStore())
}
