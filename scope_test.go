package toolerr

import (
	"context"
	"errors"
	"net/http/httptest"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestRequestContextCarriesIDs(t *testing.T) {
	ctx := NewRequestContext(context.Background(), "req-1", "4bf92f3577b34da6a3ce929d0e0e4736")
	assert.Equal(t, "req-1", RequestID(ctx))
	assert.Equal(t, "4bf92f3577b34da6a3ce929d0e0e4736", TraceID(ctx))
	assert.Empty(t, RequestID(context.Background()))
	assert.Empty(t, TraceID(context.Background()))
}

func TestRequestContextForwardsTheParent(t *testing.T) {
	type key struct{}
	parent, cancel := context.WithCancel(context.WithValue(context.Background(), key{}, "v"))
	ctx := NewRequestContext(parent, "req-1", "")
	child, cancelChild := context.WithCancel(ctx)
	defer cancelChild()
	assert.Equal(t, "v", ctx.Value(key{}))
	cancel()
	<-child.Done() // cancellation propagates through the scope
	assert.ErrorIs(t, child.Err(), context.Canceled)
	assert.ErrorIs(t, ctx.Err(), context.Canceled)
}

func TestDerivedScopesShareRecordings(t *testing.T) {
	ctx := NewRequestContext(context.Background(), "req-1", "4bf92f3577b34da6a3ce929d0e0e4736")
	type otherKey struct{}
	derived := WithRequestID(context.WithValue(ctx, otherKey{}, 1), "req-2")
	assert.Equal(t, "req-2", RequestID(derived))
	assert.Equal(t, "4bf92f3577b34da6a3ce929d0e0e4736", TraceID(derived), "the trace id is kept")
	assert.Equal(t, "req-1", RequestID(ctx), "the parent is unchanged")

	RecordIntent(derived, "create_invoice", "inv-1", "submitted", "poll GET /invoices/inv-1")
	RecordVendor(WithTraceID(derived, ""), "stripe")
	in, ok := RecordedIntent(ctx)
	require.True(t, ok, "a recording under a derived context reaches the request's scope")
	assert.Equal(t, Intent{Operation: "create_invoice", ResourceID: "inv-1", State: "submitted", Recovery: "poll GET /invoices/inv-1"}, in)
	assert.Equal(t, "stripe", RecordedVendor(ctx))
}

func TestRecordIntentReplacesAndClears(t *testing.T) {
	ctx := NewRequestContext(context.Background(), "r", "")
	_, ok := RecordedIntent(ctx)
	assert.False(t, ok)
	RecordIntent(ctx, "refund", "ch_1", "validated", "")
	RecordIntent(ctx, "refund", "ch_1", "sent to processor", "GET /refunds?charge=ch_1")
	in, ok := RecordedIntent(ctx)
	require.True(t, ok)
	assert.Equal(t, "sent to processor", in.State)
	RecordIntent(ctx, "", "", "", "")
	_, ok = RecordedIntent(ctx)
	assert.False(t, ok, "an empty operation clears the record")
}

func TestRecordingsWithoutScopeDoNothing(t *testing.T) {
	ctx := context.Background()
	RecordIntent(ctx, "op", "id", "state", "recovery")
	RecordVendor(ctx, "stripe")
	_, ok := RecordedIntent(ctx)
	assert.False(t, ok)
	assert.Empty(t, RecordedVendor(ctx))
	assert.Nil(t, WrittenError(ctx))
}

func TestRecordingsAreSafeForConcurrentUse(t *testing.T) {
	ctx := NewRequestContext(context.Background(), "r", "")
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			for range 100 {
				RecordIntent(ctx, "op", "id", "state", "")
				RecordVendor(ctx, "v")
				_, _ = RecordedIntent(ctx)
				_ = RecordedVendor(ctx)
				_ = i
			}
		})
	}
	wg.Wait()
}

func TestWriteRecordsTheWrittenError(t *testing.T) {
	cause := errors.New("stock service said no")
	e := Default().New(CodeConflict, "Item 4 is out of stock.").WithCause(cause)
	req := httptest.NewRequest("POST", "/tools/order", nil)
	req = req.WithContext(NewRequestContext(req.Context(), "req-9", ""))
	Write(httptest.NewRecorder(), req, e)
	got := WrittenError(req.Context())
	require.NotNil(t, got)
	assert.Equal(t, CodeConflict, got.Code)
	assert.Equal(t, "req-9", got.RequestID, "the ids Write filled in")
	assert.ErrorIs(t, got, cause, "the Go cause is kept for the log")
}

func TestEmbeddedRequestScope(t *testing.T) {
	type state struct {
		RequestScope
		body []byte // the embedder's own state
	}
	st := &state{body: []byte("x")}
	st.Init(context.Background(), "req-7", "")
	var ctx context.Context = &st.RequestScope
	assert.Equal(t, "req-7", RequestID(ctx))
	RecordVendor(WithTraceID(ctx, "4bf92f3577b34da6a3ce929d0e0e4736"), "aws")
	assert.Equal(t, "aws", RecordedVendor(ctx))
	allocs := testing.AllocsPerRun(100, func() {
		st.Init(context.Background(), "req-8", "")
		RecordVendor(&st.RequestScope, "aws")
	})
	assert.Zero(t, allocs, "the scope lives in the embedding allocation")
	assert.Equal(t, "x", string(st.body), "Init leaves the embedder's fields alone")
}
