package reqscope

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// intent stands for toolerr.Intent, which this package cannot import.
type intent struct{ Operation, State string }

func TestNewCarriesIDs(t *testing.T) {
	ctx := New(context.Background(), "req-1", "4bf92f3577b34da6a3ce929d0e0e4736")
	assert.Equal(t, "req-1", RequestID(ctx))
	assert.Equal(t, "4bf92f3577b34da6a3ce929d0e0e4736", TraceID(ctx))
	assert.Empty(t, RequestID(context.Background()))
	assert.Empty(t, TraceID(context.Background()))
}

func TestNewForwardsTheParent(t *testing.T) {
	type key struct{}
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), key{}, "v"))
	ctx := New(parent, "req-1", "")
	child, cancelChild := context.WithCancel(ctx)
	defer cancelChild()
	assert.Equal(t, "v", ctx.Value(key{}))
	cancel()
	<-child.Done() // cancellation propagates through the scope
	assert.ErrorIs(t, child.Err(), context.Canceled)
	assert.ErrorIs(t, ctx.Err(), context.Canceled)
}

// TestDerivedScopesShareRecordings: a scope derived with WithRequestID or
// WithTraceID keeps the other id and records into the request's scope.
func TestDerivedScopesShareRecordings(t *testing.T) {
	ctx := New(context.Background(), "req-1", "4bf92f3577b34da6a3ce929d0e0e4736")
	type otherKey struct{}
	derived := WithRequestID(context.WithValue(ctx, otherKey{}, 1), "req-2")
	assert.Equal(t, "req-2", RequestID(derived))
	assert.Equal(t, "4bf92f3577b34da6a3ce929d0e0e4736", TraceID(derived), "the trace id is kept")
	traced := WithTraceID(derived, "0af7651916cd43dd8448eb211c80319c")
	assert.Equal(t, "req-2", RequestID(traced), "the request id is kept")
	assert.Equal(t, "req-1", RequestID(ctx), "the parent is unchanged")

	RecordIntent(derived, intent{Operation: "create_invoice", State: "submitted"})
	RecordVendor(traced, "stripe")
	in, ok := RecordedIntent[intent](ctx)
	require.True(t, ok, "a recording under a derived context reaches the request's scope")
	assert.Equal(t, intent{Operation: "create_invoice", State: "submitted"}, in)
	assert.Equal(t, "stripe", RecordedVendor(ctx))
	ClearIntent(traced)
	_, ok = RecordedIntent[intent](ctx)
	assert.False(t, ok, "cleared")
}

func TestRecordingsWithoutScopeDoNothing(t *testing.T) {
	ctx := context.Background()
	RecordIntent(ctx, intent{Operation: "op"})
	ClearIntent(ctx)
	RecordVendor(ctx, "stripe")
	RecordWritten(ctx, &intent{})
	_, ok := RecordedIntent[intent](ctx)
	assert.False(t, ok)
	assert.Empty(t, RecordedVendor(ctx))
	assert.Nil(t, Written[*intent](ctx))
	assert.Nil(t, TextFilter(ctx))
	assert.False(t, OnNextWritten(ctx, func(*intent) {}), "no request scope")
	allocs := testing.AllocsPerRun(100, func() { RecordIntent(ctx, intent{Operation: "op"}) })
	assert.Zero(t, allocs, "no scope, no allocation")
}

func TestRecordingsAreSafeForConcurrentUse(t *testing.T) {
	ctx := New(context.Background(), "r", "")
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			for range 100 {
				RecordIntent(ctx, intent{Operation: "op"})
				RecordVendor(ctx, "v")
				RecordWritten(ctx, &intent{})
				_, _ = RecordedIntent[intent](ctx)
				_ = RecordedVendor(ctx)
				_ = Written[*intent](ctx)
			}
		})
	}
	wg.Wait()
}

// TestOnNextWritten: f gets the next value recorded as written, once; a
// later registration replaces an earlier one; a value of another type
// does not reach it.
func TestOnNextWritten(t *testing.T) {
	ctx := New(context.Background(), "req-1", "")
	var got []*intent
	replaced := false
	require.True(t, OnNextWritten(ctx, func(*intent) { replaced = true }))
	require.True(t, OnNextWritten(ctx, func(e *intent) { got = append(got, e) }))
	first, second := &intent{Operation: "a"}, &intent{Operation: "b"}
	RecordWritten(ctx, first)
	RecordWritten(ctx, second)
	require.Len(t, got, 1, "called once")
	assert.Same(t, first, got[0])
	assert.Same(t, second, Written[*intent](ctx))
	assert.False(t, replaced, "a later registration replaces an earlier one")
	assert.False(t, OnNextWritten[*intent](ctx, nil), "nil f")
}

func TestEmbeddedScope(t *testing.T) {
	type state struct {
		Scope
		body []byte // the embedder's own state
	}
	st := &state{body: []byte("x")}
	st.Init(context.Background(), "req-7", "")
	var ctx context.Context = &st.Scope
	assert.Equal(t, "req-7", RequestID(ctx))
	RecordVendor(WithTraceID(ctx, "4bf92f3577b34da6a3ce929d0e0e4736"), "aws")
	assert.Equal(t, "aws", RecordedVendor(ctx))
	allocs := testing.AllocsPerRun(100, func() {
		st.Init(context.Background(), "req-8", "")
		RecordVendor(&st.Scope, "aws")
	})
	assert.Zero(t, allocs, "the scope lives in the embedding allocation")
	assert.Equal(t, "x", string(st.body), "Init leaves the embedder's fields alone")
}

// redactTestKey is a context key of the test.
type redactTestKey struct{}

// TestFilters: Redact passes text through the redact filter of the
// request scope, in contexts derived from it too, and says so; without a
// scope or a filter it returns the text and false. TextFilter returns the
// text filter set.
func TestFilters(t *testing.T) {
	if out, ok := Redact(context.Background(), "sk_live_x"); ok || out != "sk_live_x" {
		t.Fatalf("no scope: %q %v", out, ok)
	}
	var s Scope
	s.Init(context.Background(), "req-1", "")
	if out, ok := Redact(&s, "sk_live_x"); ok || out != "sk_live_x" {
		t.Fatalf("no filter: %q %v", out, ok)
	}
	s.SetHooks(&Hooks{
		Clean:  strings.ToUpper,
		Redact: func(text string) string { return strings.ReplaceAll(text, "sk_live_x", "[REDACTED]") },
	})
	derived := context.WithValue(&s, redactTestKey{}, 1)
	if out, ok := Redact(derived, "key sk_live_x"); !ok || out != "key [REDACTED]" {
		t.Fatalf("filter: %q %v", out, ok)
	}
	if clean := TextFilter(WithRequestID(derived, "req-2")); clean == nil || clean("a") != "A" {
		t.Fatal("the text filter is shared by derived scopes")
	}
}
