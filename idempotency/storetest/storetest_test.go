package storetest_test

import (
	"testing"

	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/storetest"
)

// TestMemoryStore runs the suite against the in-process store, which
// also checks the suite itself.
func TestMemoryStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) idempotency.Store { return idempotency.NewMemoryStore() })
}

// TestToolCallsMemory runs the suite of idempotency.ToolCalls over the
// memory store.
func TestToolCallsMemory(t *testing.T) {
	storetest.RunToolCalls(t, func(t *testing.T) idempotency.Store { return idempotency.NewMemoryStore() })
}

// TestFailureCounterMemory runs the suite of idempotency.FailureCounter
// over the memory store.
func TestFailureCounterMemory(t *testing.T) {
	storetest.RunFailureCounter(t, func(t *testing.T) idempotency.FailureCounter { return idempotency.NewMemoryStore() })
}
