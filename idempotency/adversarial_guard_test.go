package idempotency

import (
	"io"
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

// TestAdversarialNonJSONBodiesAreComparedAsSent breaks promise 2 ("distinct
// requests never merge") for tools whose body is not JSON.
//
// Input: a tool that takes its argument as text/plain (a release tag, a
// note, a price typed by a user): POST with Content-Type: text/plain and
// body 1.10, then the same principal and key (middleware) or no key
// (guard) with body 1.1.
//
// What happens: both texts happen to parse as JSON numbers, and
// defaultFingerprint and guard.serve canonicalize any body that parses,
// whatever its media type: "1.10" and "1.1" (like "[1, 2]" and "[1,2]",
// or "100" and "1e2") get one fingerprint. Release 1.1 is answered with
// release 1.10's stored response (Idempotent-Replayed) instead of
// IDEMPOTENCY_KEY_REUSED, and without a key the guard blocks it as
// DUPLICATE_ACTION: the tool never creates release 1.1.
//
// Fix (options.go, newConfig's default fingerprint, and guard.go,
// guard.serve): canonicalize only bodies whose Content-Type is JSON
// (application/json or a +json suffix; absent could stay JSON for agent
// runtimes); hash any other body as sent, with its media type.
func TestAdversarialNonJSONBodiesAreComparedAsSent(t *testing.T) {
	send := func(h http.Handler, key, body string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("POST", "/tools/create_release", strings.NewReader(body))
		req.Header.Set("Content-Type", "text/plain; charset=utf-8")
		req.Header.Set("Authorization", "Bearer a")
		if key != "" {
			req.Header.Set("Idempotency-Key", key)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	release := func(runs *atomic.Int32) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			runs.Add(1)
			b, _ := io.ReadAll(r.Body)
			w.WriteHeader(http.StatusCreated)
			_, _ = w.Write([]byte("created release " + string(b)))
		})
	}
	t.Run("middleware", func(t *testing.T) {
		var runs atomic.Int32
		h := newMW(NewMemoryStore())(release(&runs))
		require.Equal(t, "created release 1.10", send(h, "k-1", "1.10").Body.String())
		rec := send(h, "k-1", "1.1")
		assert.NotEqual(t, "created release 1.10", rec.Body.String(), "release 1.1 answered with release 1.10's response")
		assert.Equal(t, http.StatusUnprocessableEntity, rec.Code, "another text with the same key is a reused key")
	})
	t.Run("guard", func(t *testing.T) {
		var runs atomic.Int32
		h := DuplicateGuard(NewMemoryStore(), WithLogger(quiet))(release(&runs))
		require.Equal(t, http.StatusCreated, send(h, "", "1.10").Code)
		rec := send(h, "", "1.1")
		assert.Equal(t, http.StatusCreated, rec.Code, "release 1.1 is another call: %s", rec.Body.String())
		assert.EqualValues(t, 2, runs.Load())
	})
}

// TestAdversarialGuardLetsARetryableFailureBeRetried: a contract break
// between the guard and the errors it sits in front of.
//
// Input: DuplicateGuard in front of a tool that answers its first call
// with toolerr RATE_LIMITED (429, retryable: true, Retry-After: 1); the
// agent does what the error says: waits a second and sends the same call
// again (no key: retrygate never retries a keyless POST, so the agent
// does).
//
// What happens: the guard recorded the 429 as the first call and answers
// the retry DUPLICATE_ACTION (409, conflict, retryable: false,
// first_status 429) for the rest of its one-minute window: the agent was
// told to retry and is then told never to. The idempotency middleware
// releases the key for 408, 409, 425, 429 and 5xx for exactly this reason
// ("the failure may have been passing"); the guard does not.
//
// Fix (guard.go, guard.serve): after next.ServeHTTP, Release the guard's
// claim instead of completing it when the status is one that
// keyed.storable refuses (408, 409, 425, 429, 5xx), so that only a
// call that took effect blocks its repeats.
func TestAdversarialGuardLetsARetryableFailureBeRetried(t *testing.T) {
	now := time.Date(2026, 11, 22, 12, 0, 0, 0, time.UTC)
	clock := func() time.Time { return now }
	var runs atomic.Int32
	h := DuplicateGuard(NewMemoryStore(WithClock(clock)), WithLogger(quiet), withNow(clock))(
		http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if runs.Add(1) == 1 {
				toolerr.Write(w, r, toolerr.Default().New(toolerr.CodeRateLimited, "Too many labels this second.").WithRetryAfter(time.Second))
				return
			}
			w.WriteHeader(http.StatusCreated)
		}))
	first := call(h, "", "Bearer a", `{"to":"Oslo"}`)
	require.Equal(t, http.StatusTooManyRequests, first.Code)
	e, err := toolerr.Parse(first.Body.Bytes())
	require.NoError(t, err)
	require.True(t, e.Retryable, "the agent is told to retry")

	now = now.Add(time.Second + 100*time.Millisecond) // it waits as told
	retry := call(h, "", "Bearer a", `{"to":"Oslo"}`)
	assert.Equal(t, http.StatusCreated, retry.Code, "the retry the error asked for runs: %s", retry.Body.String())
	assert.EqualValues(t, 2, runs.Load())
}
