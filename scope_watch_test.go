package toolerr

import (
	"context"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestOnNextWrittenError: f gets the next error Write renders for the
// request, once; a later registration replaces an earlier one; without a
// request scope nothing is registered.
func TestOnNextWrittenError(t *testing.T) {
	assert.False(t, OnNextWrittenError(context.Background(), func(*Error) {}), "no request scope")

	ctx := NewRequestContext(context.Background(), "req-1", "")
	var got []*Error
	replaced := false
	require.True(t, OnNextWrittenError(ctx, func(*Error) { replaced = true }))
	require.True(t, OnNextWrittenError(ctx, func(e *Error) { got = append(got, e) }))
	req := httptest.NewRequest("GET", "/tools/x", nil).WithContext(ctx)
	Write(httptest.NewRecorder(), req, Default().New(CodeNotFound, ""))
	Write(httptest.NewRecorder(), req, Default().New(CodeConflict, ""))
	require.Len(t, got, 1, "called once")
	assert.Equal(t, CodeNotFound, got[0].Code)
	assert.Equal(t, "req-1", got[0].RequestID, "the error as rendered")
	assert.Same(t, WrittenError(ctx), WrittenError(ctx))
	assert.False(t, replaced, "a later registration replaces an earlier one")
}
