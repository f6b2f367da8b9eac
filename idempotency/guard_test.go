package idempotency

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

func newGuard(store Store, opts ...Option) (http.Handler, *atomic.Int32) {
	var runs atomic.Int32
	h := DuplicateGuard(store, append([]Option{WithLogger(quiet)}, opts...)...)(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		runs.Add(1)
		w.Header().Set("X-Request-Id", "req-first")
		w.WriteHeader(http.StatusCreated)
	}))
	return h, &runs
}

func TestGuardBlocksAnIdenticalCall(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	store := NewMemoryStore(WithClock(clock))
	h, runs := newGuard(store, WithWindow(time.Minute), withNow(clock))
	require.Equal(t, 201, call(h, "", "Bearer a", `{"to":"Oslo","kg":2}`).Code)

	now = now.Add(1500 * time.Millisecond)
	rec := call(h, "", "Bearer a", "{ \"kg\": 2.0, \"to\": \"Oslo\" }")
	assert.Equal(t, 409, rec.Code)
	e, err := toolerr.Parse(rec.Body.Bytes())
	require.NoError(t, err)
	assert.Equal(t, toolerr.CodeDuplicateAction, e.Code)
	assert.Equal(t, toolerr.CategoryConflict, e.Category)
	assert.False(t, e.Retryable)
	assert.Equal(t, json.Number("1500"), e.Details["first_call_age_ms"])
	assert.Equal(t, json.Number("201"), e.Details["first_status"])
	assert.Equal(t, "req-first", e.Details["first_request_id"])
	assert.Equal(t, "2026-11-22T12:00:00Z", e.Details["first_call_at"])
	assert.Contains(t, e.Hint, "Idempotency-Key")
	assert.EqualValues(t, 1, runs.Load())
}

func TestGuardLetsOtherCallsThrough(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	store := NewMemoryStore(WithClock(func() time.Time { return now }))
	h, runs := newGuard(store, WithWindow(time.Minute))
	call(h, "", "Bearer a", `{"to":"Oslo"}`)
	assert.Equal(t, 201, call(h, "", "Bearer a", `{"to":"Bergen"}`).Code, "other arguments")
	assert.Equal(t, 201, call(h, "", "Bearer b", `{"to":"Oslo"}`).Code, "another session")
	assert.Equal(t, 201, call(h, "k-1", "Bearer a", `{"to":"Oslo"}`).Code, "a deliberate repeat carries a key")
	now = now.Add(61 * time.Second)
	assert.Equal(t, 201, call(h, "", "Bearer a", `{"to":"Oslo"}`).Code, "after the window")
	assert.EqualValues(t, 5, runs.Load())
}

func TestGuardNonJSONBody(t *testing.T) {
	h, runs := newGuard(NewMemoryStore())
	call(h, "", "Bearer a", "to=Oslo&kg=2")
	assert.Equal(t, 409, call(h, "", "Bearer a", "to=Oslo&kg=2").Code)
	assert.Equal(t, 201, call(h, "", "Bearer a", "to=Oslo&kg=3").Code)
	assert.EqualValues(t, 2, runs.Load())
}

func TestGuardWithStoreDownLetsCallsThrough(t *testing.T) {
	h, runs := newGuard(failingStore{})
	assert.Equal(t, 201, call(h, "", "Bearer a", `{}`).Code)
	assert.Equal(t, 201, call(h, "", "Bearer a", `{}`).Code)
	assert.EqualValues(t, 2, runs.Load())
}

func TestGuardIgnoresReads(t *testing.T) {
	h, runs := newGuard(NewMemoryStore())
	for range 2 {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, httptest.NewRequest("GET", "/tools/x", strings.NewReader("")))
	}
	assert.EqualValues(t, 2, runs.Load())
}

// withNow sets the middleware's clock, for tests.
func withNow(now func() time.Time) Option { return func(c *config) { c.now = now } }
