package idempotency

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// TestAnonymousCallersNeverShareReplays is the reported break: two callers
// without credentials and without WithPrincipal sent the same key, and the
// second got the first's response. By default a keyed anonymous request is
// refused before anything runs or is stored.
func TestAnonymousCallersNeverShareReplays(t *testing.T) {
	tool := &labelTool{}
	h := newMW(NewMemoryStore())(tool)
	for range 2 { // the first anonymous caller, then the second
		rec := call(h, "k-1", "", `{"to":"Oslo"}`)
		assert.Equal(t, http.StatusUnauthorized, rec.Code)
		assert.Empty(t, rec.Header().Get("Idempotent-Replayed"))
		e, err := toolerr.Parse(rec.Body.Bytes())
		require.NoError(t, err)
		assert.Equal(t, toolerr.CodeUnauthenticated, e.Code)
		assert.Contains(t, e.Detail, "Idempotency-Key")
		assert.Contains(t, e.Hint, "Authorization")
	}
	assert.Zero(t, tool.runs.Load(), "refused before the handler")
	assert.Equal(t, 201, call(h, "", "", `{"to":"Oslo"}`).Code, "without a key, an anonymous call runs as without the middleware")
	assert.EqualValues(t, 1, tool.runs.Load())
}

// TestAnonymousScopeOptions: WithPrincipal names callers without an
// Authorization header; SharedAnonymousScope opts in to one scope for all
// anonymous callers; a missing key is still reported first.
func TestAnonymousScopeOptions(t *testing.T) {
	tenant := WithPrincipal(func(r *http.Request) string { return r.Header.Get("Authorization") + "|tenant-7" })
	tests := []struct {
		name       string
		opts       []Option
		first      int
		second     int
		replayed   bool
		wantRuns   int32
		secondCode string
	}{
		{"default: refused", nil, 401, 401, false, 0, toolerr.CodeUnauthenticated},
		{"WithPrincipal: scoped", []Option{tenant}, 201, 201, true, 1, ""},
		{"SharedAnonymousScope: one scope", []Option{SharedAnonymousScope()}, 201, 201, true, 1, ""},
		{"key required: missing key first", []Option{Required()}, 400, 400, false, 0, toolerr.CodeIdempotencyKeyMissing},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tool := &labelTool{}
			h := newMW(NewMemoryStore(), tt.opts...)(tool)
			key := "k-1"
			if tt.secondCode == toolerr.CodeIdempotencyKeyMissing {
				key = ""
			}
			assert.Equal(t, tt.first, call(h, key, "", `{}`).Code)
			second := call(h, key, "", `{}`)
			assert.Equal(t, tt.second, second.Code)
			assert.Equal(t, tt.replayed, second.Header().Get("Idempotent-Replayed") == "true")
			if tt.secondCode != "" {
				assert.Equal(t, tt.secondCode, code(t, second))
			}
			assert.Equal(t, tt.wantRuns, tool.runs.Load())
		})
	}
}

// TestGuardNeverComparesAnonymousCallers: by default DuplicateGuard lets
// identical anonymous calls through (two anonymous callers cannot be told
// apart: neither is blocked by, nor told about, the other's call); with
// SharedAnonymousScope it guards them as one caller.
func TestGuardNeverComparesAnonymousCallers(t *testing.T) {
	tests := []struct {
		name   string
		opts   []Option
		second int
		runs   int32
	}{
		{"default", nil, 201, 2},
		{"shared anonymous scope", []Option{SharedAnonymousScope()}, 409, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			h, runs := newGuard(NewMemoryStore(), tt.opts...)
			require.Equal(t, 201, call(h, "", "", `{"to":"Oslo"}`).Code)
			second := call(h, "", "", `{"to":"Oslo"}`)
			assert.Equal(t, tt.second, second.Code)
			if tt.second == 409 {
				assert.Equal(t, toolerr.CodeDuplicateAction, code(t, second), "one caller, by the service's choice")
			} else {
				assert.NotContains(t, second.Body.String(), "req-first", "nothing of the first call leaks")
			}
			assert.Equal(t, tt.runs, runs.Load())
		})
	}
}
