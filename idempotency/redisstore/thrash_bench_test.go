package redisstore_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/redisstore"
	"github.com/toolerr/toolerr/idempotency/redisstore/redistest"
	"github.com/toolerr/toolerr/middleware"
)

// BenchmarkThrashGuardRedis is the guard's cost on a successful call over
// a real Redis, against the same stack without the guard, in one run:
// with no run of failures live (guard=on: the store heard of none, and
// its grace is 0, so the call is not looked up), and with one live
// (guard=on,runs-live: within the default grace, as right after the
// store starts listening, every call is looked up, one round trip).
func BenchmarkThrashGuardRedis(b *testing.B) {
	addr, _ := redistest.Start(b)
	client := newClient(b, addr)
	tool := middleware.Tool("get_order", func(w http.ResponseWriter, r *http.Request) error {
		_, _ = io.ReadAll(r.Body)
		_, _ = io.WriteString(w, `{"id":"ord-1","status":"shipped"}`)
		return nil
	})
	idle := redisstore.New(client, redisstore.WithKeyPrefix(uniquePrefix()), redisstore.WithRunsGrace(0))
	live := redisstore.New(client, redisstore.WithKeyPrefix(uniquePrefix()))
	b.Cleanup(func() { _ = idle.Close(); _ = live.Close() })
	for deadline := time.Now().Add(5 * time.Second); idle.MayHaveRuns(); time.Sleep(time.Millisecond) {
		if time.Now().After(deadline) {
			b.Fatal("the store does not listen")
		}
	}
	for _, v := range []struct {
		name  string
		store *redisstore.Store
	}{{"guard=off", nil}, {"guard=on", idle}, {"guard=on,runs-live", live}} {
		var h http.Handler = tool
		if v.store != nil {
			h = idempotency.ThrashGuard(v.store, idempotency.WithLogger(quietLog))(h)
		}
		h = middleware.New(middleware.WithLogger(quietLog))(h)
		b.Run("success/"+v.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, "/tools/get_order", strings.NewReader(`{"id":"ord-1"}`))
				req.Header.Set("Content-Type", "application/json")
				req.Header.Set("Authorization", "Bearer agent-1")
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != 200 {
					b.Fatalf("status %d", rec.Code)
				}
			}
		})
	}
}
