package idempotency_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/middleware"
)

// thrashBenchStack is the toolerr middleware and a Tool that answers 200
// with a small JSON body, or NOT_FOUND for {"id":"missing…"}, with or
// without the thrash guard over a memory store between them.
func thrashBenchStack(guarded bool) http.Handler {
	tool := middleware.Tool("get_order", func(w http.ResponseWriter, r *http.Request) error {
		b, _ := io.ReadAll(r.Body)
		if strings.Contains(string(b), "missing") {
			return toolerr.Default().New(toolerr.CodeNotFound, "No such order.")
		}
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, `{"id":"ord-1","status":"shipped"}`)
		return nil
	})
	var h http.Handler = tool
	if guarded {
		h = idempotency.ThrashGuard(idempotency.NewMemoryStore(), idempotency.WithLogger(quietLog))(h)
	}
	return middleware.New(middleware.WithLogger(quietLog))(h)
}

// serveBench sends body to h b.N times, each a new request (with a fresh
// header map, which the middleware stamps).
func serveBench(b *testing.B, h http.Handler, body func(i int) string, want int) {
	b.ReportAllocs()
	i := 0
	for b.Loop() {
		req := httptest.NewRequest(http.MethodPost, "/tools/get_order", strings.NewReader(body(i)))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer agent-1")
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		if rec.Code != want {
			b.Fatalf("status %d, want %d: %s", rec.Code, want, rec.Body)
		}
		i++
	}
}

// BenchmarkThrashGuard is the guard's cost: on a successful call (with
// and without the guard, in one run), on a failed call it counts (each
// with other arguments, so none is refused), and on a refused call.
func BenchmarkThrashGuard(b *testing.B) {
	ok := func(int) string { return `{"id":"ord-1"}` }
	failing := func(i int) string { return `{"id":"missing-` + strconv.Itoa(i) + `"}` }
	for _, guarded := range []bool{false, true} {
		name := "guard=off"
		if guarded {
			name = "guard=on"
		}
		b.Run("success/"+name, func(b *testing.B) { serveBench(b, thrashBenchStack(guarded), ok, 200) })
		b.Run("failure/"+name, func(b *testing.B) { serveBench(b, thrashBenchStack(guarded), failing, 404) })
	}
	b.Run("success/guard=on,store-holds-runs", func(b *testing.B) {
		// Another call failed within the window: the guard reads, keys
		// and looks up every call.
		h := thrashBenchStack(true)
		prime(h, `{"id":"missing-0"}`, 1)
		serveBench(b, h, ok, 200)
	})
	b.Run("refused/guard=on", func(b *testing.B) {
		h := thrashBenchStack(true)
		prime(h, `{"id":"missing-1"}`, 2)
		serveBench(b, h, func(int) string { return `{"id":"missing-1"}` }, http.StatusConflict)
	})
}

// prime sends body to h n times.
func prime(h http.Handler, body string, n int) {
	for range n {
		req := httptest.NewRequest(http.MethodPost, "/tools/get_order", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Authorization", "Bearer agent-1")
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
}
