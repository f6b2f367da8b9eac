package redisstore_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/redisstore"
	"github.com/toolerr/toolerr/idempotency/redisstore/redistest"
	"github.com/toolerr/toolerr/middleware"
)

// BenchmarkThrashGuardRedis is the guard's cost on a successful call over
// a real Redis: the lookup of the call's run, one round trip, against the
// same stack without the guard, in one run.
func BenchmarkThrashGuardRedis(b *testing.B) {
	addr, _ := redistest.Start(b)
	client := newClient(b, addr)
	tool := middleware.Tool("get_order", func(w http.ResponseWriter, r *http.Request) error {
		_, _ = io.ReadAll(r.Body)
		_, _ = io.WriteString(w, `{"id":"ord-1","status":"shipped"}`)
		return nil
	})
	for _, guarded := range []bool{false, true} {
		var h http.Handler = tool
		name := "guard=off"
		if guarded {
			name = "guard=on"
			h = idempotency.ThrashGuard(redisstore.New(client, redisstore.WithKeyPrefix(uniquePrefix())), idempotency.WithLogger(quietLog))(h)
		}
		h = middleware.New(middleware.WithLogger(quietLog))(h)
		b.Run("success/"+name, func(b *testing.B) {
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
