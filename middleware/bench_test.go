package middleware

import (
	"bufio"
	"context"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/felixge/httpsnoop"
	chimw "github.com/go-chi/chi/v5/middleware"
)

// benchWriter is a reusable ResponseWriter with the optional interfaces of
// net/http's own (Flusher, Hijacker, ReaderFrom, StringWriter), so that the
// benchmarks measure the middleware, not a recorder's allocations.
type benchWriter struct {
	h      http.Header
	status int
	n      int
}

func (w *benchWriter) Header() http.Header  { return w.h }
func (w *benchWriter) WriteHeader(code int) { w.status = code }
func (w *benchWriter) Write(b []byte) (int, error) {
	w.n += len(b)
	return len(b), nil
}
func (w *benchWriter) WriteString(s string) (int, error) {
	w.n += len(s)
	return len(s), nil
}
func (w *benchWriter) Flush() {}
func (w *benchWriter) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	return nil, nil, http.ErrNotSupported
}
func (w *benchWriter) ReadFrom(r io.Reader) (int64, error) { return io.Copy(io.Discard, r) }

// reset clears the writer between iterations without reallocating.
func (w *benchWriter) reset() {
	clear(w.h)
	w.status, w.n = 0, 0
}

// runHandler serves req with h b.N times.
func runHandler(b *testing.B, h http.Handler, req *http.Request) {
	b.Helper()
	w := &benchWriter{h: make(http.Header, 8)}
	b.ReportAllocs()
	header := req.Header
	for b.Loop() {
		w.reset()
		// A new request's headers, as a server hands each request: the
		// middleware stamps the request's ids in them, which a map kept
		// from the last iteration would carry in as a client's id.
		clear(header)
		req.Header = header
		h.ServeHTTP(w, req)
	}
	if w.status == 0 && w.n == 0 {
		b.Fatal("the handler wrote nothing")
	}
}

// snoopRecorder is the pass-through half of the middleware written with
// httpsnoop's hooks, as DESIGN.md first proposed: the same six interceptions
// (WriteHeader, Write, WriteString, ReadFrom, Flush, Hijack) the recorder
// makes, each a closure per request.
func snoopRecorder(next http.Handler) http.Handler {
	type state struct {
		status          int
		started, hijack bool
	}
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		s := &state{}
		ww := httpsnoop.Wrap(w, httpsnoop.Hooks{
			WriteHeader: func(next httpsnoop.WriteHeaderFunc) httpsnoop.WriteHeaderFunc {
				return func(code int) { s.status, s.started = code, true; next(code) }
			},
			Write: func(next httpsnoop.WriteFunc) httpsnoop.WriteFunc {
				return func(b []byte) (int, error) { s.started = true; return next(b) }
			},
			WriteString: func(next httpsnoop.WriteStringFunc) httpsnoop.WriteStringFunc {
				return func(str string) (int, error) { s.started = true; return next(str) }
			},
			ReadFrom: func(next httpsnoop.ReadFromFunc) httpsnoop.ReadFromFunc {
				return func(src io.Reader) (int64, error) { s.started = true; return next(src) }
			},
			Flush: func(next httpsnoop.FlushFunc) httpsnoop.FlushFunc {
				return func() { s.started = true; next() }
			},
			Hijack: func(next httpsnoop.HijackFunc) httpsnoop.HijackFunc {
				return func() (net.Conn, *bufio.ReadWriter, error) { s.hijack = true; return next() }
			},
		})
		next.ServeHTTP(ww, r.WithContext(context.WithValue(r.Context(), recorderKey{}, s)))
	})
}

// okHandler writes a 1 KiB JSON body with status 200.
var okHandler = func() http.Handler {
	body := []byte(`{"orders":[` + strings.Repeat(`"o-000001",`, 92) + `"o-000002"]}`)[:1024]
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusOK)
		_, _ = w.Write(body)
	})
}()

// BenchmarkPassThrough compares a 2xx response with a 1 KiB body through
// New() against chi's RequestID + Recoverer pair, the same interceptions
// built with httpsnoop, and no middleware at all. Run with -count and
// compare medians with benchstat; the goal is New() ≤ 1.25× the chi
// pair's ns/op and at most one allocation more.
func BenchmarkPassThrough(b *testing.B) {
	req, _ := http.NewRequest("POST", "/tools/search_orders", nil)
	b.Run("toolerr", func(b *testing.B) { runHandler(b, New(WithLogger(quiet))(okHandler), req) })
	b.Run("chi_requestid_recoverer", func(b *testing.B) {
		runHandler(b, chimw.RequestID(chimw.Recoverer(okHandler)), req)
	})
	b.Run("httpsnoop_hooks", func(b *testing.B) { runHandler(b, snoopRecorder(okHandler), req) })
	b.Run("bare", func(b *testing.B) { runHandler(b, okHandler, req) })
}

// nginx502Page4KiB is nginx's 502 page with the padding comments nginx adds
// for browsers' friendly error pages, grown to 4 KiB.
func nginx502Page4KiB(b *testing.B) []byte {
	page := []byte(fixture(b, "html/nginx_502.html"))
	const pad = "<!-- a padding to disable MSIE and Chrome friendly error page -->\n"
	for len(page)+len(pad) <= 4096 {
		page = append(page, pad...)
	}
	return page
}

// javaTraceJSON64KiB is a 64 KiB JSON error body: a message with three
// secrets and a Java stack trace with escaped newlines, then filler.
func javaTraceJSON64KiB(b *testing.B) []byte {
	trace := fixture(b, "stacks/java_caused_by.txt")
	escaped := strings.NewReplacer("\\", `\\`, `"`, `\"`, "\n", `\n`, "\t", `\t`).Replace(trace)
	var sb strings.Builder
	sb.WriteString(`{"error":{"message":"charge failed for postgres://billing:Pr0dPassw0rd!x@10.20.30.40:5432/ledger using key sk_live_51HxQmPLqT0k2abcdefghijklmnopq and Authorization: Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.dozjgNryP4J3jVmNHl0w5N_XgL0n3I9PlFUP0THsR8U","trace":"`)
	for sb.Len() < 60<<10 {
		sb.WriteString(escaped)
	}
	sb.WriteString(`"}}`)
	return []byte(sb.String())[:min(sb.Len(), 64<<10)]
}

// BenchmarkErrorPath measures replacing a raw error response: capture,
// classify, sanitize, render.
func BenchmarkErrorPath(b *testing.B) {
	req, _ := http.NewRequest("POST", "/tools/search_orders", nil)
	raw := func(status int, contentType string, body []byte) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("Content-Type", contentType)
			w.WriteHeader(status)
			_, _ = w.Write(body)
		})
	}
	b.Run("nginx_502_html_4KiB", func(b *testing.B) {
		page := nginx502Page4KiB(b)
		b.SetBytes(int64(len(page)))
		runHandler(b, New(WithLogger(quiet))(raw(http.StatusBadGateway, "text/html", page)), req)
	})
	b.Run("json_64KiB_java_trace_3_secrets", func(b *testing.B) {
		body := javaTraceJSON64KiB(b)
		b.SetBytes(int64(len(body)))
		runHandler(b, New(WithLogger(quiet))(raw(http.StatusInternalServerError, "application/json", body)), req)
	})
}
