package toolerr

import (
	"context"
	"errors"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/internal/reqscope"
)

// The request scope itself is tested in internal/reqscope; these tests
// check what the root records into it and reads from it.

func TestRequestContextCarriesIDs(t *testing.T) {
	ctx := reqscope.New(context.Background(), "req-1", "4bf92f3577b34da6a3ce929d0e0e4736")
	assert.Equal(t, "req-1", RequestID(ctx))
	assert.Equal(t, "4bf92f3577b34da6a3ce929d0e0e4736", TraceID(ctx))
	assert.Empty(t, RequestID(context.Background()))
	assert.Empty(t, TraceID(context.Background()))
}

func TestDerivedScopesShareRecordings(t *testing.T) {
	ctx := reqscope.New(context.Background(), "req-1", "4bf92f3577b34da6a3ce929d0e0e4736")
	type otherKey struct{}
	derived := WithRequestID(context.WithValue(ctx, otherKey{}, 1), "req-2")
	assert.Equal(t, "req-2", RequestID(derived))
	assert.Equal(t, "4bf92f3577b34da6a3ce929d0e0e4736", TraceID(derived), "the trace id is kept")
	assert.Equal(t, "req-1", RequestID(ctx), "the parent is unchanged")

	RecordIntent(derived, "create_invoice", "inv-1", "submitted", "poll GET /invoices/inv-1")
	RecordVendor(WithTraceID(derived, ""), "stripe")
	in, ok := reqscope.RecordedIntent[Intent](ctx)
	require.True(t, ok, "a recording under a derived context reaches the request's scope")
	assert.Equal(t, Intent{Operation: "create_invoice", ResourceID: "inv-1", State: "submitted", Recovery: "poll GET /invoices/inv-1"}, in)
	assert.Equal(t, "stripe", reqscope.RecordedVendor(ctx))
}

func TestRecordIntentReplacesAndClears(t *testing.T) {
	ctx := reqscope.New(context.Background(), "r", "")
	_, ok := reqscope.RecordedIntent[Intent](ctx)
	assert.False(t, ok)
	RecordIntent(ctx, "refund", "ch_1", "validated", "")
	RecordIntent(ctx, "refund", "ch_1", "sent to processor", "GET /refunds?charge=ch_1")
	in, ok := reqscope.RecordedIntent[Intent](ctx)
	require.True(t, ok)
	assert.Equal(t, "sent to processor", in.State)
	RecordIntent(ctx, "", "", "", "")
	_, ok = reqscope.RecordedIntent[Intent](ctx)
	assert.False(t, ok, "an empty operation clears the record")
}

func TestRecordingsWithoutScopeDoNothing(t *testing.T) {
	ctx := context.Background()
	RecordIntent(ctx, "op", "id", "state", "recovery")
	RecordVendor(ctx, "stripe")
	_, ok := reqscope.RecordedIntent[Intent](ctx)
	assert.False(t, ok)
	assert.Empty(t, reqscope.RecordedVendor(ctx))
	assert.Nil(t, reqscope.Written[*Error](ctx))
	allocs := testing.AllocsPerRun(100, func() { RecordIntent(ctx, "op", "id", "state", "recovery") })
	assert.Zero(t, allocs, "no scope, no allocation")
}

func TestWriteRecordsTheWrittenError(t *testing.T) {
	cause := errors.New("stock service said no")
	e := Default().New(CodeConflict, "Item 4 is out of stock.").WithCause(cause)
	req := httptest.NewRequest("POST", "/tools/order", nil)
	req = req.WithContext(reqscope.New(req.Context(), "req-9", ""))
	Write(httptest.NewRecorder(), req, e)
	got := reqscope.Written[*Error](req.Context())
	require.NotNil(t, got)
	assert.Equal(t, CodeConflict, got.Code)
	assert.Equal(t, "req-9", got.RequestID, "the ids Write filled in")
	assert.ErrorIs(t, got, cause, "the Go cause is kept for the log")
}

// TestWriteCallsOnNextWritten: a function registered with
// reqscope.OnNextWritten gets the next error Write renders for the
// request, as rendered, once; a later registration replaces an earlier one.
func TestWriteCallsOnNextWritten(t *testing.T) {
	ctx := reqscope.New(context.Background(), "req-1", "")
	var got []*Error
	replaced := false
	require.True(t, reqscope.OnNextWritten(ctx, func(*Error) { replaced = true }))
	require.True(t, reqscope.OnNextWritten(ctx, func(e *Error) { got = append(got, e) }))
	req := httptest.NewRequest("GET", "/tools/x", nil).WithContext(ctx)
	Write(httptest.NewRecorder(), req, Default().New(CodeNotFound, ""))
	Write(httptest.NewRecorder(), req, Default().New(CodeConflict, ""))
	require.Len(t, got, 1, "called once")
	assert.Equal(t, CodeNotFound, got[0].Code)
	assert.Equal(t, "req-1", got[0].RequestID, "the error as rendered")
	assert.Equal(t, CodeConflict, reqscope.Written[*Error](ctx).Code, "the last rendering is recorded")
	assert.False(t, replaced, "a later registration replaces an earlier one")
}
