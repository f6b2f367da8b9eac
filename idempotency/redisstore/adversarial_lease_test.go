package redisstore_test

import (
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

	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/redisstore"
	"github.com/toolerr/toolerr/idempotency/redisstore/redistest"
)

// TestAdversarialRedisLapsedLeaseTakeover: over a real server and four
// replicas (one client each), the first request runs past its lease; then
// 60 retries arrive at once, spread over the replicas. Exactly one of them
// takes the lapsed claim over and runs (the documented cost of a lease set
// below the handler's time); the others are IDEMPOTENCY_IN_PROGRESS or replay its answer. When
// the first request finally answers, its Complete is fenced off, and every
// later retry replays the second run's response, never the first's. With
// no grace period the lapsed record is deleted by Redis and the new token
// restarts from the server clock: the fence holds as well.
func TestAdversarialRedisLapsedLeaseTakeover(t *testing.T) {
	addr, _ := redistest.Start(t)
	graces := map[string]time.Duration{"default grace": redisstore.DefaultInFlightGrace, "no grace": 0}
	for name, grace := range graces {
		t.Run(name, func(t *testing.T) {
			// The takeover's own claim must hold from its Claim to its
			// Complete while 59 other retries hit the server: 200 ms was
			// too short under -race on a loaded 2-core machine (a third run).
			const lease = time.Second
			prefix := uniquePrefix()
			var runs atomic.Int32
			firstMayAnswer := make(chan struct{})
			handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				n := runs.Add(1)
				if n == 1 {
					<-firstMayAnswer
				}
				body := "run n"
				if n == 1 {
					body = "run 1"
				}
				w.Header().Set("Content-Type", "text/plain")
				w.WriteHeader(http.StatusCreated)
				_, _ = io.WriteString(w, body)
			})
			replicas := make([]http.Handler, 4)
			for i := range replicas {
				store := redisstore.New(newClient(t, addr), redisstore.WithKeyPrefix(prefix), redisstore.WithInFlightGrace(grace))
				replicas[i] = idempotency.Middleware(store, idempotency.WithLogger(quietLog), idempotency.WithLease(lease))(handler)
			}
			send := func(h http.Handler) *httptest.ResponseRecorder {
				req := httptest.NewRequest("POST", "/tools/charge", strings.NewReader(`{"cents":500}`))
				req.Header.Set("Idempotency-Key", "k-lease")
				req.Header.Set("Authorization", "Bearer agent-1")
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				return rec
			}
			firstDone := make(chan *httptest.ResponseRecorder, 1)
			go func() { firstDone <- send(replicas[0]) }()
			require.Eventually(t, func() bool { return runs.Load() == 1 }, 5*time.Second, time.Millisecond)
			assert.Equal(t, http.StatusConflict, send(replicas[1]).Code, "within the lease")
			time.Sleep(lease + 100*time.Millisecond)

			const n = 60
			outcomes := make([]string, n)
			start := make(chan struct{})
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					<-start
					rec := send(replicas[i%len(replicas)])
					outcomes[i] = map[bool]string{true: "replayed", false: "ran"}[rec.Header().Get("Idempotent-Replayed") == "true"]
					if rec.Code != http.StatusCreated {
						outcomes[i] = http.StatusText(rec.Code)
					}
				})
			}
			close(start)
			wg.Wait()
			count := map[string]int{}
			for _, o := range outcomes {
				count[o]++
			}
			assert.Equal(t, 1, count["ran"], "exactly one retry ran: %v", count)
			assert.Equal(t, n, count["ran"]+count["replayed"]+count[http.StatusText(http.StatusConflict)], "only runs, replays and 409s: %v", count)
			assert.EqualValues(t, 2, runs.Load(), "one takeover, not one per replica")

			close(firstMayAnswer)
			assert.Equal(t, "run 1", (<-firstDone).Body.String(), "the first client still gets its answer")
			for i, h := range replicas {
				rec := send(h)
				assert.Equal(t, "true", rec.Header().Get("Idempotent-Replayed"), "replica %d", i)
				assert.Equal(t, "run n", rec.Body.String(), "replica %d: the late first Complete was fenced off", i)
			}
			assert.EqualValues(t, 2, runs.Load())
		})
	}
}
