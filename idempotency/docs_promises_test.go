package idempotency

// Promises of the idempotency package in docs/ (idempotency.md,
// options.md, guarantees.md), checked with Middleware(store) and
// NewMemoryStore() without options. Each test also checks that its page
// still says what it checks.

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/docpage"
)

// keyedCall sends one keyed POST through h.
func keyedCall(h http.Handler, path, key, body string) *httptest.ResponseRecorder {
	req := httptest.NewRequest(http.MethodPost, path, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Authorization", "Bearer agent-7")
	req.Header.Set("Idempotency-Key", key)
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	return rec
}

// "WithReplayHeaders(names…) | Content-Type, Content-Language,
// Content-Location, Location, ETag, Last-Modified, Link"; "retry, same key
// and request | the stored status, allow-listed headers and body, with
// Idempotent-Replayed: true".
func TestOptionsPageDefaultReplayHeaders(t *testing.T) {
	docpage.Says(t, "../docs/options.md",
		"| `WithReplayHeaders(names…)` | `Content-Type`, `Content-Language`, `Content-Location`, `Location`, `ETag`, `Last-Modified`, `Link` |")
	docpage.Says(t, "../docs/idempotency.md",
		"| retry, same key and request | the stored status, allow-listed headers and body, with `Idempotent-Replayed: true` |")
	allowed := map[string]string{
		"Content-Type":     "application/json",
		"Content-Language": "en",
		"Content-Location": "/labels/lbl-9",
		"Location":         "/labels/lbl-9",
		"Etag":             `"v1-lbl-9"`,
		"Last-Modified":    "Wed, 25 Nov 2026 05:00:00 GMT",
		"Link":             `</labels/lbl-9/pdf>; rel="alternate"`,
	}
	other := map[string]string{"Set-Cookie": "s=1", "X-Carrier-Trace": "c-77", "Cache-Control": "private"}
	var runs atomic.Int32
	h := Middleware(NewMemoryStore())(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		runs.Add(1)
		for k, v := range allowed {
			w.Header().Set(k, v)
		}
		for k, v := range other {
			w.Header().Set(k, v)
		}
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"label":"lbl-9"}`)
	}))
	keyedCall(h, "/tools/create_shipment_label", "k-hdr", `{"to":"Oslo"}`)
	again := keyedCall(h, "/tools/create_shipment_label", "k-hdr", `{"to":"Oslo"}`)
	assert.EqualValues(t, 1, runs.Load())
	assert.Equal(t, http.StatusCreated, again.Code)
	assert.Equal(t, `{"label":"lbl-9"}`, again.Body.String())
	assert.Equal(t, "true", again.Header().Get("Idempotent-Replayed"))
	for k, v := range allowed {
		assert.Equal(t, v, again.Header().Get(k), "%s is replayed", k)
	}
	for k := range other {
		assert.Empty(t, again.Header().Get(k), "%s is not replayed", k)
	}
}

// "WithMaxStored(n) | 1 MiB of response storable"; a response over it is
// "answered in full, released, logged: never a truncated replay".
func TestOptionsPageDefaultMaxStoredOneMiB(t *testing.T) {
	docpage.Says(t, "../docs/options.md",
		"| `WithMaxStored(n)` | 1 MiB of response storable |")
	docpage.Says(t, "../docs/idempotency.md",
		"or when the response is over the storable limit (answered in full, released, logged: never a truncated replay).")
	for _, tc := range []struct {
		size int
		runs int32
	}{
		{1 << 20, 1},
		{1<<20 + 1, 2},
	} {
		t.Run(fmt.Sprint(tc.size), func(t *testing.T) {
			body := strings.Repeat("L", tc.size)
			var runs atomic.Int32
			h := Middleware(NewMemoryStore())(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				runs.Add(1)
				w.WriteHeader(http.StatusCreated)
				_, _ = io.WriteString(w, body)
			}))
			first := keyedCall(h, "/tools/export", "k-big", `{}`)
			second := keyedCall(h, "/tools/export", "k-big", `{}`)
			assert.Equal(t, tc.size, first.Body.Len(), "answered in full")
			assert.Equal(t, tc.size, second.Body.Len(), "never a truncated replay")
			assert.Equal(t, tc.runs, runs.Load())
		})
	}
}

// "WithMaxBody(n) | 1 MiB of request body fingerprinted; more is
// PAYLOAD_TOO_LARGE" ("A keyed body over WithMaxBody (1 MiB) is refused
// with PAYLOAD_TOO_LARGE rather than run without protection").
func TestOptionsPageDefaultMaxBodyOneMiB(t *testing.T) {
	docpage.Says(t, "../docs/options.md",
		"| `WithMaxBody(n)` | 1 MiB of request body fingerprinted; more is `PAYLOAD_TOO_LARGE` |")
	docpage.Says(t, "../docs/guarantees.md",
		"A keyed body over `WithMaxBody` (1 MiB) is refused with `PAYLOAD_TOO_LARGE` rather than run without protection.")
	var runs atomic.Int32
	h := Middleware(NewMemoryStore())(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		runs.Add(1)
		n, _ := io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = fmt.Fprintf(w, `{"read":%d}`, n)
	}))
	fits := keyedCall(h, "/tools/upload", "k-fits", strings.Repeat("a", 1<<20))
	assert.Equal(t, http.StatusCreated, fits.Code)
	assert.Equal(t, fmt.Sprintf(`{"read":%d}`, 1<<20), fits.Body.String(), "the handler gets every byte")
	over := keyedCall(h, "/tools/upload", "k-over", strings.Repeat("a", 1<<20+1))
	assert.Equal(t, http.StatusRequestEntityTooLarge, over.Code)
	e, err := toolerr.Parse(over.Body.Bytes())
	require.NoError(t, err)
	assert.Equal(t, toolerr.CodePayloadTooLarge, e.Code)
	assert.EqualValues(t, 1, runs.Load(), "the refused call never ran")
}

// "same key while the first runs | IDEMPOTENCY_IN_PROGRESS 409, retryable,
// Retry-After: 1" ("WithWait(d) | 0: answer IDEMPOTENCY_IN_PROGRESS at
// once"), and "same key, another request (method, tool or body) |
// IDEMPOTENCY_KEY_REUSED 422" with the default tool (the path).
func TestIdempotencyPageDefaultInProgressAndReusedKey(t *testing.T) {
	docpage.Says(t, "../docs/idempotency.md",
		"| same key while the first runs | `IDEMPOTENCY_IN_PROGRESS` 409, retryable, `Retry-After: 1`;",
		"| same key, another request (method, tool or body; JSON compared in RFC 8785 canonical form) | `IDEMPOTENCY_KEY_REUSED` 422")
	docpage.Says(t, "../docs/options.md",
		"| `WithWait(d)` | 0: answer `IDEMPOTENCY_IN_PROGRESS` at once |")
	release := make(chan struct{})
	started := make(chan struct{})
	var once sync.Once
	h := Middleware(NewMemoryStore())(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == "/tools/create_shipment_label" {
			once.Do(func() { close(started) })
			<-release
		}
		w.WriteHeader(http.StatusCreated)
	}))
	done := make(chan struct{})
	go func() {
		defer close(done)
		keyedCall(h, "/tools/create_shipment_label", "k-run", `{"to":"Oslo"}`)
	}()
	<-started
	t0 := time.Now()
	busy := keyedCall(h, "/tools/create_shipment_label", "k-run", `{"to":"Oslo"}`)
	assert.Less(t, time.Since(t0), 400*time.Millisecond, "answered at once")
	assert.Equal(t, http.StatusConflict, busy.Code)
	assert.Equal(t, "1", busy.Header().Get("Retry-After"))
	e, err := toolerr.Parse(busy.Body.Bytes())
	require.NoError(t, err)
	assert.Equal(t, toolerr.CodeIdempotencyInProgress, e.Code)
	assert.True(t, e.Retryable)

	otherTool := keyedCall(h, "/tools/cancel_shipment_label", "k-run", `{"to":"Oslo"}`)
	close(release)
	<-done
	// Keys are scoped by tool: another tool's same key is another key.
	assert.Equal(t, http.StatusCreated, otherTool.Code)

	reused := keyedCall(h, "/tools/create_shipment_label", "k-run", `{"to":"Bergen"}`)
	assert.Equal(t, http.StatusUnprocessableEntity, reused.Code)
	e, err = toolerr.Parse(reused.Body.Bytes())
	require.NoError(t, err)
	assert.Equal(t, toolerr.CodeIdempotencyKeyReused, e.Code)
}

// "idempotency.NewMemoryStore(opts…): WithMaxEntries(n) 100,000 …; 64
// shards … a store full of them refuses new claims": each shard holds
// 100,000/64 claims in flight, then refuses.
func TestOptionsPageMemoryStoreDefaultEntries(t *testing.T) {
	docpage.Says(t, "../docs/options.md",
		"`idempotency.NewMemoryStore(opts…)`: `WithMaxEntries(n)` 100,000; `WithMaxBytes(n)` 256 MiB; 64 shards, each with its own lock.",
		"but never a claim in flight: a store full of them refuses new claims.")
	ctx := context.Background()
	s := NewMemoryStore()
	require.Equal(t, 64, memShards)
	keys := keysInShard(s, 0, 2000)
	held := 0
	for _, k := range keys {
		c, err := s.Claim(ctx, k, "fp", time.Minute)
		if err != nil {
			require.True(t, errors.Is(err, ErrStoreFull), "%v", err)
			break
		}
		require.True(t, c.Claimed)
		held++
	}
	assert.Equal(t, 100_000/64, held, "a shard's share of 100,000 entries")
}

// "DuplicateGuard … same call without a key inside the window |
// DUPLICATE_ACTION 409 with details.first_call_at, first_call_age_ms,
// first_status, first_request_id", with the default options (the request
// id is the one toolerr.WithRequestID puts in the context, as the
// middleware does).
func TestIdempotencyPageDuplicateGuardDefaults(t *testing.T) {
	docpage.Says(t, "../docs/idempotency.md",
		"(`DuplicateGuard`) | `DUPLICATE_ACTION` 409 with `details.first_call_at`, `first_call_age_ms`, `first_status`, `first_request_id`;")
	var runs atomic.Int32
	h := DuplicateGuard(NewMemoryStore())(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		runs.Add(1)
		w.WriteHeader(http.StatusCreated)
	}))
	send := func() *httptest.ResponseRecorder {
		req := httptest.NewRequest(http.MethodPost, "/tools/notify_customer", strings.NewReader(`{"order":"o-1","text":"Shipped"}`))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer agent-7")
		req = req.WithContext(toolerr.WithRequestID(req.Context(), fmt.Sprintf("call-%d", runs.Load()+1)))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	require.Equal(t, http.StatusCreated, send().Code)
	dup := send()
	assert.Equal(t, http.StatusConflict, dup.Code)
	e, err := toolerr.Parse(dup.Body.Bytes())
	require.NoError(t, err)
	assert.Equal(t, toolerr.CodeDuplicateAction, e.Code)
	for _, k := range []string{"first_call_at", "first_call_age_ms"} {
		assert.Contains(t, e.Details, k)
	}
	assert.EqualValues(t, "201", fmt.Sprint(e.Details["first_status"]))
	assert.Equal(t, "call-1", e.Details["first_request_id"])
	assert.Equal(t, "60000", fmt.Sprint(e.Details["window_ms"]), "WithWindow(d) (guard) | 1 min")
	assert.EqualValues(t, 1, runs.Load())
}
