package toolerr

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/internal/reqscope"
)

const (
	scopeID    = "req-scope-1"
	scopeTrace = "4bf92f3577b34da6a3ce929d0e0e4736"
)

// scopedRequest returns a request under a scope with the ids above and a
// filter that redacts "SECRET", counting the texts it is given.
func scopedRequest(seen *sync.Map) *http.Request {
	var scope reqscope.Scope
	scope.Init(context.Background(), scopeID, scopeTrace)
	scope.SetHooks(&reqscope.Hooks{Clean: func(s string) string {
		seen.Store(s, true)
		return strings.ReplaceAll(s, "SECRET", "[x]")
	}})
	return httptest.NewRequest(http.MethodGet, "/tools/find", nil).WithContext(&scope)
}

// TestWriteUsesAnErrorThatCarriesTheRequestsIDs: an error that already
// carries the request's ids and needs no cleaning is rendered and recorded
// as it is, neither copied nor written to; the filter never sees the ids.
func TestWriteUsesAnErrorThatCarriesTheRequestsIDs(t *testing.T) {
	var seen sync.Map
	r := scopedRequest(&seen)
	e := Default().New(CodeNotFound, "no such order").WithInstance("/tools/find").
		WithRequestID(scopeID).WithTraceID(scopeTrace)
	rec := httptest.NewRecorder()
	Write(rec, r, e)
	assert.Same(t, e, reqscope.Written[*Error](r.Context()), "no copy")
	body := decodeRendered(t, rec.Body.Bytes())
	assert.Equal(t, scopeID, body["request_id"])
	assert.Equal(t, scopeTrace, body["trace_id"])
	_, sawID := seen.Load(scopeID)
	_, sawTrace := seen.Load(scopeTrace)
	assert.False(t, sawID || sawTrace, "the request's own ids are not cleaned")
	_, sawDetail := seen.Load("no such order")
	assert.True(t, sawDetail, "every other text is")
}

// TestWriteReplacesForeignIDsWithoutCleaningThem: an error with ids of its
// own (a handler's, a downstream's) gets the request's, on a copy; the
// caller's error keeps its ids, and a secret in them reaches nothing.
func TestWriteReplacesForeignIDsWithoutCleaningThem(t *testing.T) {
	var seen sync.Map
	r := scopedRequest(&seen)
	e := Default().New(CodeNotFound, "no such order").WithInstance("/tools/find").
		WithRequestID("SECRET-id").WithTraceID("0af7651916cd43dd8448eb211c80319c")
	rec := httptest.NewRecorder()
	Write(rec, r, e)
	written := reqscope.Written[*Error](r.Context())
	require.NotSame(t, e, written)
	assert.Equal(t, scopeID, written.RequestID)
	assert.Equal(t, scopeTrace, written.TraceID)
	assert.Equal(t, "SECRET-id", e.RequestID, "the caller's error is left alone")
	assert.NotContains(t, rec.Body.String(), "SECRET")
}

// TestWriteCleansTheErrorsIDsWhenTheRequestHasNone: without ids of the
// request's own, the error's request id is kept, cleaned.
func TestWriteCleansTheErrorsIDsWhenTheRequestHasNone(t *testing.T) {
	var seen sync.Map
	var scope reqscope.Scope
	scope.Init(context.Background(), "", "")
	scope.SetHooks(&reqscope.Hooks{Clean: func(s string) string {
		seen.Store(s, true)
		return strings.ReplaceAll(s, "SECRET", "x")
	}})
	r := httptest.NewRequest(http.MethodGet, "/tools/find", nil).WithContext(&scope)
	e := Default().New(CodeNotFound, "no such order").WithRequestID("SECRET-7")
	rec := httptest.NewRecorder()
	Write(rec, r, e)
	assert.Equal(t, "x-7", decodeRendered(t, rec.Body.Bytes())["request_id"])
	_, saw := seen.Load("SECRET-7")
	assert.True(t, saw)
}

// TestWriteSharedErrorConcurrently writes one error value, shared as a
// sentinel is, from many goroutines, some of whose requests carry the ids
// it holds and some not: under -race, Write must never write to it.
func TestWriteSharedErrorConcurrently(t *testing.T) {
	shared := Default().New(CodeNotFound, "no such order").WithInstance("/tools/find").
		WithRequestID(scopeID).WithTraceID(scopeTrace)
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 200 {
				var scope reqscope.Scope
				id := scopeID
				if (g+i)%2 == 1 {
					id = "req-other-2"
				}
				scope.Init(context.Background(), id, scopeTrace)
				scope.SetHooks(&reqscope.Hooks{Clean: func(s string) string { return s }})
				r := httptest.NewRequest(http.MethodGet, "/tools/find", nil).WithContext(&scope)
				rec := httptest.NewRecorder()
				Write(rec, r, shared)
				if got := reqscope.Written[*Error](&scope).RequestID; got != id {
					t.Errorf("written request id %q, want %q", got, id)
					return
				}
			}
		})
	}
	wg.Wait()
	assert.Equal(t, scopeID, shared.RequestID)
}
