package storetest

import (
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
)

// quiet discards the middleware's log lines.
var quiet = slog.New(slog.DiscardHandler)

// SameKeyAtOnce sends callers requests with the same key at the same
// moment through idempotency.Middleware over store, and checks that the
// handler ran exactly once and that every other caller got the replay or
// IDEMPOTENCY_IN_PROGRESS: never a second execution.
func SameKeyAtOnce(t *testing.T, store idempotency.Store, callers int) {
	t.Helper()
	var runs atomic.Int32
	// The store deadline is far above the default: this checks atomicity,
	// and callers many times the cores queue for the store's connections.
	h := idempotency.Middleware(store, idempotency.WithLogger(quiet), idempotency.WithStoreTimeout(30*time.Second))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		runs.Add(1)
		time.Sleep(20 * time.Millisecond) // long enough for the others to arrive while it runs
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"label":"lbl-1"}`)
	}))
	var (
		wg       sync.WaitGroup
		mu       sync.Mutex
		outcomes = map[string]int{}
		start    = make(chan struct{})
	)
	for range callers {
		wg.Go(func() {
			<-start
			req := httptest.NewRequest("POST", "/tools/create_shipment_label", strings.NewReader(`{"to":"Oslo"}`))
			req.Header.Set("Idempotency-Key", "same-key")
			req.Header.Set("Authorization", "Bearer agent-1")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			kind := "unexpected " + strconv.Itoa(rec.Code) + ": " + rec.Body.String()
			switch {
			case rec.Code == http.StatusCreated && rec.Header().Get("Idempotent-Replayed") == "true":
				kind = "replay"
			case rec.Code == http.StatusCreated:
				kind = "executed"
			case rec.Code == http.StatusConflict:
				var m map[string]any
				if json.Unmarshal(rec.Body.Bytes(), &m) == nil && m["code"] == toolerr.CodeIdempotencyInProgress {
					kind = "in_progress"
				}
			}
			mu.Lock()
			outcomes[kind]++
			mu.Unlock()
		})
	}
	close(start)
	wg.Wait()
	assert.EqualValues(t, 1, runs.Load(), "exactly one execution")
	assert.Equal(t, 1, outcomes["executed"], "%v", outcomes)
	assert.Equal(t, callers, outcomes["executed"]+outcomes["replay"]+outcomes["in_progress"], "%v", outcomes)
}

// BenchmarkMiddleware measures idempotency.Middleware over store: a first
// execution (a new key each time) and a replay (the same key again).
func BenchmarkMiddleware(b *testing.B, store idempotency.Store) {
	BenchmarkMiddlewareTrips(b, store, nil)
}

// BenchmarkMiddlewareTrips is [BenchmarkMiddleware] that also reports
// round_trips/op, the growth of trips over each sub-benchmark's loop per
// iteration, when trips is not nil: a counter of the store's network
// round trips (a pgx tracer, a go-redis hook). Two warm-up requests run
// first, so that statements are prepared and scripts loaded before the
// count starts.
func BenchmarkMiddlewareTrips(b *testing.B, store idempotency.Store, trips func() int64) {
	body := `{"to":"Oslo","kg":2,"service":"express"}`
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, `{"label":"lbl-1","tracking":"1Z999AA10123456784"}`)
	})
	h := idempotency.Middleware(store, idempotency.WithLogger(quiet))(handler)
	serve := func(key string) {
		req := httptest.NewRequest("POST", "/tools/create_shipment_label", strings.NewReader(body))
		req.Header.Set("Idempotency-Key", key)
		req.Header.Set("Authorization", "Bearer agent-1")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != http.StatusCreated {
			b.Fatalf("status %d: %s", rec.Code, rec.Body)
		}
	}
	count := func() int64 {
		if trips == nil {
			return 0
		}
		return trips()
	}
	report := func(b *testing.B, start int64) {
		if trips != nil && b.N > 0 {
			b.ReportMetric(float64(count()-start)/float64(b.N), "round_trips/op")
		}
	}
	var n atomic.Int64
	serve("warm-up")
	serve("warm-up")
	b.Run("first_execution", func(b *testing.B) {
		b.ReportAllocs()
		start := count()
		for b.Loop() {
			serve("first-" + strconv.FormatInt(n.Add(1), 10))
		}
		report(b, start)
	})
	b.Run("replay", func(b *testing.B) {
		serve("replayed-key")
		b.ReportAllocs()
		start := count()
		for b.Loop() {
			serve("replayed-key")
		}
		report(b, start)
	})
}
