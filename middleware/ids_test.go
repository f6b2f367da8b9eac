package middleware

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	chimw "github.com/go-chi/chi/v5/middleware"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/toolerr/toolerr"
)

// idsSeen runs one request through New(opts...) and returns the request id
// the handler saw in its context, the response's X-Request-Id and the
// rendered error's request_id and trace_id.
func idsSeen(t *testing.T, req *http.Request, opts ...Option) (ctxID, header, bodyID, bodyTrace string) {
	t.Helper()
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctxID = toolerr.RequestID(r.Context())
		w.WriteHeader(http.StatusNotFound)
	})
	rec := httptest.NewRecorder()
	opts = append([]Option{WithLogger(quiet)}, opts...)
	New(opts...)(h).ServeHTTP(rec, req)
	m := problem(t, rec.Body.Bytes())
	bodyTrace, _ = m["trace_id"].(string)
	return ctxID, rec.Header().Get("X-Request-Id"), m["request_id"].(string), bodyTrace
}

func TestIncomingRequestID(t *testing.T) {
	tests := []struct {
		name, incoming string
		kept           bool
	}{
		{"valid", "agent-run-42.step:7", true},
		{"with a slash", "gw/Zx8kq2LmPp-000042", true},
		{"too long", strings.Repeat("a", 129), false},
		{"CR LF", "abc\r\nSet-Cookie: x=1", false},
		{"quotes", `"abc"`, false},
		{"non-ASCII", "réq-1", false},
		{"space", "req 1", false},
		{"empty", "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest("GET", "/", nil)
			req.Header["X-Request-Id"] = []string{tc.incoming}
			ctxID, header, bodyID, _ := idsSeen(t, req)
			assert.Equal(t, header, ctxID, "the context and the header agree")
			assert.Equal(t, header, bodyID, "the header and the body agree")
			if tc.kept {
				assert.Equal(t, tc.incoming, header)
				return
			}
			assert.NotEqual(t, tc.incoming, header, "an invalid id is never echoed")
			assert.Len(t, header, 32, "a new random id")
		})
	}
}

func TestGenerateAlwaysIgnoresIncoming(t *testing.T) {
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("X-Request-Id", "chosen-by-client")
	_, header, bodyID, _ := idsSeen(t, req, WithRequestIDPolicy(GenerateAlways))
	assert.NotEqual(t, "chosen-by-client", header)
	assert.Equal(t, header, bodyID)
}

func TestChiRequestIDComesFirst(t *testing.T) {
	var chiID, seen string
	r := chi.NewRouter()
	r.Use(chimw.RequestID, New(WithLogger(quiet)))
	r.Get("/x", func(w http.ResponseWriter, r *http.Request) {
		chiID, seen = chimw.GetReqID(r.Context()), toolerr.RequestID(r.Context())
		w.WriteHeader(http.StatusNotFound)
	})
	req := httptest.NewRequest("GET", "/x", nil)
	req.Header.Set("X-Request-Id", "incoming-1") // chi takes it; so do we, through chi
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, req)
	assert.Equal(t, "incoming-1", chiID)
	assert.Equal(t, chiID, seen)

	rec = httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest("GET", "/x", nil))
	assert.Contains(t, chiID, "/", "chi's own ids look like host/random-000001")
	assert.Equal(t, chiID, seen)
	assert.Equal(t, chiID, problem(t, rec.Body.Bytes())["request_id"])
}

// TestChiRequestIDInsideTakesOurs: chi's RequestID mounted after toolerr
// reads the request's X-Request-Id, which holds toolerr's id: one id,
// whichever order.
func TestChiRequestIDInsideTakesOurs(t *testing.T) {
	var chiID, seen string
	r := chi.NewRouter()
	r.Use(New(WithLogger(quiet)), chimw.RequestID)
	r.Get("/x", func(w http.ResponseWriter, r *http.Request) {
		chiID, seen = chimw.GetReqID(r.Context()), toolerr.RequestID(r.Context())
		w.WriteHeader(http.StatusNotFound)
	})
	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest("GET", "/x", nil))
	require.True(t, toolerr.ValidRequestID(seen))
	assert.Equal(t, seen, chiID)
	assert.Equal(t, seen, rec.Header().Get("X-Request-Id"))
	assert.Equal(t, seen, problem(t, rec.Body.Bytes())["request_id"])
}

func TestTraceIDFromSpan(t *testing.T) {
	tp := sdktrace.NewTracerProvider()
	ctx, span := tp.Tracer("test").Start(context.Background(), "request")
	defer span.End()
	req := httptest.NewRequest("GET", "/", nil).WithContext(ctx)
	req.Header.Set("Traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
	_, _, _, trace := idsSeen(t, req)
	assert.Equal(t, span.SpanContext().TraceID().String(), trace, "the span wins over the header")
}

func TestTraceIDFromTraceparent(t *testing.T) {
	req := httptest.NewRequest("GET", "/", nil)
	req.Header.Set("Traceparent", "00-0af7651916cd43dd8448eb211c80319c-b7ad6b7169203331-01")
	_, _, _, trace := idsSeen(t, req)
	assert.Equal(t, "0af7651916cd43dd8448eb211c80319c", trace)

	req = httptest.NewRequest("GET", "/", nil)
	_, _, _, trace = idsSeen(t, req)
	assert.Empty(t, trace, "no span, no header: no trace id is invented")
}

func TestTraceparentTraceID(t *testing.T) {
	const id = "0af7651916cd43dd8448eb211c80319c"
	tests := []struct {
		v    string
		want string
	}{
		{"00-" + id + "-b7ad6b7169203331-01", id},
		{"00-" + id + "-b7ad6b7169203331-00", id},
		{"01-" + id + "-b7ad6b7169203331-01-future", id},
		{"00-" + id + "-b7ad6b7169203331-01-extra", ""},
		{"ff-" + id + "-b7ad6b7169203331-01", ""},
		{"00-00000000000000000000000000000000-b7ad6b7169203331-01", ""},
		{"00-" + id + "-0000000000000000-01", ""},
		{"00-" + strings.ToUpper(id) + "-b7ad6b7169203331-01", ""},
		{"00-" + id + "-b7ad6b7169203331-0g", ""},
		{"00_" + id + "-b7ad6b7169203331-01", ""},
		{"01-" + id + "-b7ad6b7169203331-01x", ""},
		{"", ""},
		{"garbage", ""},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, traceparentTraceID(tc.v), "%q", tc.v)
	}
}

func TestRequestIDHeaderOnSuccess(t *testing.T) {
	url := serve(t, rawHandler(200, nil, "ok"))
	resp, _ := do(t, "GET", url, http.Header{"X-Request-Id": {"abc-1"}}, "")
	require.Equal(t, 200, resp.StatusCode)
	assert.Equal(t, "abc-1", resp.Header.Get("X-Request-Id"), "echoed on every response")
}

// TestCleanIDKeepsVerdictsPerStem: ids of one stem (chi's ids, which
// differ in their counter only) get the verdict of the first, and each
// stem its own: a host name prefix is dropped, a key is refused, a clean
// id is taken whole.
func TestCleanIDKeepsVerdictsPerStem(t *testing.T) {
	m := newHandler([]Option{WithLogger(quiet)})
	for _, tc := range []struct{ in, want string }{
		{"ip-10-1-2-3.ec2.internal/Cwo9MeKE5n-000001", "Cwo9MeKE5n-000001"},
		{"ip-10-1-2-3.ec2.internal/Cwo9MeKE5n-000002", "Cwo9MeKE5n-000002"},
		{"req_sk_live_4eC39HqLyjWDarjtT1zdp7dc-1", ""},
		{"req_sk_live_4eC39HqLyjWDarjtT1zdp7dc-2", ""},
		{"agent-run-7", "agent-run-7"},
		{"agent-run-8", "agent-run-8"},
		{"ip-10-1-2-3.ec2.internal/Cwo9MeKE5n-000003", "Cwo9MeKE5n-000003"},
		{"req_sk_live_4eC39HqLyjWDarjtT1zdp7dc", ""},
	} {
		got, ok := m.cleanID(tc.in)
		assert.Equal(t, tc.want, got, tc.in)
		assert.Equal(t, tc.want != "", ok, tc.in)
	}
}

// TestOuterRequestIDMiddlewareIsAdopted: a request-id middleware of the
// service mounted before toolerr (echo's RequestID, gin-contrib's
// requestid) has set its id on the response; that id is the request's, so
// the client sees one id, in X-Request-Id and request_id alike. An id
// toolerr would not echo (one holding a key) is replaced; under
// GenerateAlways toolerr's own id wins.
func TestOuterRequestIDMiddlewareIsAdopted(t *testing.T) {
	outer := func(id string, next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			w.Header().Set("X-Request-Id", id)
			next.ServeHTTP(w, r)
		})
	}
	fail := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		assert.Equal(t, toolerr.RequestID(r.Context()), r.Header.Get("X-Request-Id"), "the request carries the request's id")
		http.Error(w, "no", http.StatusConflict)
	})
	for _, tc := range []struct {
		name, id string
		opts     []Option
		adopted  bool
	}{
		{"a clean id", "echo-Zx81kPq0", nil, true},
		{"an id holding a key", "sk_live_4eC39HqLyjWDarjtT1zdp7dc", nil, false},
		{"GenerateAlways", "echo-Zx81kPq0", []Option{WithRequestIDPolicy(GenerateAlways)}, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			opts := append([]Option{WithLogger(quiet)}, tc.opts...)
			url := newServer(t, outer(tc.id, New(opts...)(fail)))
			resp, body := do(t, "POST", url+"/tools/x", nil, "")
			require.Len(t, resp.Header.Values("X-Request-Id"), 1)
			id := resp.Header.Get("X-Request-Id")
			assert.Equal(t, id, problem(t, body)["request_id"])
			assert.Equal(t, tc.adopted, id == tc.id, "id %q", id)
			assert.NotContains(t, string(body), "sk_live")
		})
	}
}
