package mcptool_test

import (
	"context"
	"encoding/json"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/go-chi/chi/v5"
	chimw "github.com/go-chi/chi/v5/middleware"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/mcptool"
)

// The secrets a hostile stack plants; none may reach an agent, a header,
// a span or a log record (the log's cause and stack keep hosts, never
// secrets).
const (
	stackStripe = "sk_live_9Zq2R7mKx4LwP0vNc8TbY3sH"
	stackGitHub = "ghp_R4nd0mT0kenV4lueF0rStackT3stQwErTy9Z"
	stackHost   = "db-7.prod.internal"
)

// stackRig is one service with everything mounted together: otelhttp
// around chi (with chi's RequestID), toolerr's middleware, a ServeMux
// under a chi sub-route, HTTP tools, a keyed tool behind idempotency, and
// an MCP server over streamable HTTP.
type stackRig struct {
	url   string
	spans *tracetest.SpanRecorder
	logs  *logBuffer
	runs  atomic.Int32
}

// newStackRig starts the service on a loopback port.
func newStackRig(t *testing.T) *stackRig {
	t.Helper()
	rig := &stackRig{spans: tracetest.NewSpanRecorder()}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(rig.spans))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	var logger = newLoggerInto(&rig.logs)
	dirty := "use " + stackStripe + " or " + stackGitHub + " on " + stackHost

	mcpServer := newServer()
	mcptool.AddTool(mcpServer, &mcp.Tool{Name: "track"}, func(ctx context.Context, _ *mcp.CallToolRequest, in trackArgs) (*mcp.CallToolResult, any, error) {
		return nil, nil, toolerr.Default().New(toolerr.CodeValidationFailed, dirty).WithField("/" + stackStripe).
			WithDetails(map[string]any{"deep": []any{dirty}, "order_id": "ord_8f3a2b91"}).WithRequestID(stackStripe)
	}, mcptool.WithLogger(logger))

	mux := http.NewServeMux()
	mux.HandleFunc("POST /raw", func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusInternalServerError)
		_, _ = io.WriteString(w, "java.lang.IllegalStateException: pool for "+stackHost+" exhausted, key "+stackStripe+
			"\n\tat com.acme.Pool.get(Pool.java:12)\n\tat com.acme.Svc.run(Svc.java:3)\n")
	})

	r := chi.NewRouter()
	r.Use(chimw.RequestID)
	r.Use(middleware.New(middleware.WithLogger(logger)))
	r.Method(http.MethodPost, "/tools/pay", middleware.Tool("pay", func(w http.ResponseWriter, r *http.Request) error {
		return toolerr.Default().New(toolerr.CodeValidationFailed, dirty).WithField("/to/" + stackStripe).
			WithAllowedValues([]any{dirty}).WithIntent(toolerr.Intent{Operation: dirty}).
			WithUpstream(toolerr.Upstream{Vendor: "stripe", RequestID: "req_" + stackStripe}).
			WithDetails(map[string]any{"uuid": "3fa85f64-5717-4562-b3fc-2c963f66afa6", "deep": map[string]any{"x": dirty}}).
			WithRequestID(stackStripe)
	}))
	r.With(idempotency.Middleware(idempotency.NewMemoryStore(), idempotency.WithLogger(logger))).
		Method(http.MethodPost, "/tools/label", middleware.Tool("label", func(w http.ResponseWriter, r *http.Request) error {
			rig.runs.Add(1)
			b, _ := io.ReadAll(r.Body)
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusCreated)
			_, _ = w.Write(b)
			return nil
		}))
	r.Mount("/svc", http.StripPrefix("/svc", mux))
	r.Handle("/mcp", mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return mcpServer }, nil))

	srv := httptest.NewServer(otelhttp.NewHandler(r, "tools", otelhttp.WithTracerProvider(tp)))
	t.Cleanup(srv.Close)
	rig.url = srv.URL
	return rig
}

// newLoggerInto is newLogger, storing the buffer in *b.
func newLoggerInto(b **logBuffer) *slog.Logger {
	l, buf := newLogger()
	*b = buf
	return l
}

// post sends body to path with the headers and returns the response and
// its body.
func (rig *stackRig) post(t *testing.T, path, body string, header http.Header) (*http.Response, string) {
	t.Helper()
	req, err := http.NewRequest(http.MethodPost, rig.url+path, strings.NewReader(body))
	require.NoError(t, err)
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	require.NoError(t, err)
	return resp, string(b)
}

// assertNoSecret fails when s holds a planted secret.
func assertNoSecret(t *testing.T, where, s string) {
	t.Helper()
	for _, m := range []string{"9Zq2R7mKx4LwP0vNc8Tb", "R4nd0mT0kenV4lueF0rStack"} {
		assert.NotContains(t, s, m, where)
	}
}

// TestHostileStack sends hostile errors through every exit of one service
// with chi, otelhttp, a ServeMux, idempotency and MCP over streamable HTTP
// mounted together: nothing secret or internal reaches the agent, a
// header, a span or the log; the request id is the stack's own; and a
// keyed mutation runs once.
func TestHostileStack(t *testing.T) {
	rig := newStackRig(t)

	for _, path := range []string{"/tools/pay", "/svc/raw"} {
		resp, body := rig.post(t, path, `{}`, nil)
		assert.GreaterOrEqual(t, resp.StatusCode, 400, path)
		assertNoSecret(t, path+" body", body)
		assert.NotContains(t, body, stackHost, path)
		assert.NotContains(t, body, "Pool.java", path+": frames")
		for k, v := range resp.Header {
			assertNoSecret(t, path+" header "+k, strings.Join(v, ","))
		}
		var p map[string]any
		require.NoError(t, json.Unmarshal([]byte(body), &p), body)
		id := resp.Header.Get("X-Request-Id")
		assert.Equal(t, id, p["request_id"], path)
		assert.True(t, toolerr.ValidRequestID(id), id)
		if path == "/tools/pay" {
			assert.Equal(t, "3fa85f64-5717-4562-b3fc-2c963f66afa6", p["details"].(map[string]any)["uuid"], "benign ids survive")
		}
	}

	// MCP over streamable HTTP, through otelhttp, chi and toolerr's middleware.
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "v0.0.1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{Endpoint: rig.url + "/mcp"}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	res := call(t, cs, "track", map[string]any{})
	assert.True(t, res.IsError)
	structured, err := json.Marshal(res.StructuredContent)
	require.NoError(t, err)
	assertNoSecret(t, "mcp structured", string(structured))
	assert.NotContains(t, string(structured), stackHost)
	for _, s := range text(t, res) {
		assertNoSecret(t, "mcp text", s)
	}
	assert.Contains(t, string(structured), "ord_8f3a2b91")

	// A keyed mutation, 20 concurrent identical calls: one execution.
	var wg sync.WaitGroup
	codes := make(chan int, 20)
	for range 20 {
		wg.Go(func() {
			resp, _ := rig.post(t, "/tools/label", `{"to_account":1152921504606846977}`,
				http.Header{"Idempotency-Key": {"k-1"}, "Authorization": {"Bearer agent-1"}})
			codes <- resp.StatusCode
		})
	}
	wg.Wait()
	close(codes)
	for c := range codes {
		assert.Contains(t, []int{http.StatusCreated, http.StatusConflict}, c)
	}
	assert.EqualValues(t, 1, rig.runs.Load(), "one execution per key")
	resp, _ := rig.post(t, "/tools/label", `{"to_account":1152921504606846976}`,
		http.Header{"Idempotency-Key": {"k-1"}, "Authorization": {"Bearer agent-1"}})
	assert.Equal(t, http.StatusUnprocessableEntity, resp.StatusCode, "a neighbouring 64-bit number is another request")

	for _, s := range rig.spans.Ended() {
		for _, kv := range s.Attributes() {
			assertNoSecret(t, "span "+string(kv.Key), kv.Value.String())
		}
		for _, ev := range s.Events() {
			for _, kv := range ev.Attributes {
				assertNoSecret(t, "span event "+string(kv.Key), kv.Value.String())
			}
		}
	}
	for _, line := range strings.Split(strings.TrimSpace(rig.logs.String()), "\n") {
		assertNoSecret(t, "log", line)
	}
}
