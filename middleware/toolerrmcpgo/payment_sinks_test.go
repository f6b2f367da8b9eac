package toolerrmcpgo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/contrib/instrumentation/net/http/otelhttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/internal/docpage"
	"github.com/toolerr/toolerr/internal/leakprobe"
	"github.com/toolerr/toolerr/internal/spantext"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrmcpgo"
	"github.com/toolerr/toolerr/translate"
)

// payStore is a memory store that keeps a copy of every response
// completed in it: what the idempotency store holds.
type payStore struct {
	idempotency.Store
	mu     sync.Mutex
	stored [][]byte
}

func (s *payStore) Complete(ctx context.Context, key string, token uint64, resp idempotency.Response, retention time.Duration) error {
	s.mu.Lock()
	s.stored = append(s.stored, append([]byte(leakprobe.HeaderText(resp.Header)), resp.Body...))
	s.mu.Unlock()
	return s.Store.Complete(ctx, key, token, resp, retention)
}

func (s *payStore) all() [][]byte {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([][]byte(nil), s.stored...)
}

// payTools adds tools that fail with payment data in every way an mcp-go
// tool can carry it; vendor is the URL of a Stripe-like server.
func payTools(s *server.MCPServer, vendor string) {
	add := func(name string, h server.ToolHandlerFunc) {
		s.AddTool(mcp.NewTool(name, mcp.WithDestructiveHintAnnotation(true), mcp.WithIdempotentHintAnnotation(false),
			mcp.WithReadOnlyHintAnnotation(false)), h)
	}
	add("go_error", func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, fmt.Errorf("charging card %s failed: %w", leakprobe.Card, errors.New(leakprobe.PaymentTextNoCode+", cvc: 123"))
	})
	add("panic", func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		panic("charging failed: " + leakprobe.PaymentTextNoCode)
	})
	details := func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, toolerr.Default().New(toolerr.CodeValidationFailed, "card "+leakprobe.Card+" refused, cvc: 123").
			WithDetails(map[string]any{"card": 4242424242424242, "card_text": leakprobe.Card, "cvc": 123,
				"note": "cvc: 123", "iban": leakprobe.IBAN, "ssn": leakprobe.SSN}).
			WithSuggestedValue(json.Number("4242424242424242")).
			WithCause(errors.New(leakprobe.PaymentText))
	}
	add("details", details)
	add("keyed", details)
	add("vendor", func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		toolerr.RecordVendor(ctx, "stripe")
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, vendor+"/v1/charges", nil)
		if err != nil {
			return nil, err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		return nil, fmt.Errorf("stripe: %w", translate.Response(resp))
	})
	add("ok", func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return mcp.NewToolResultText("charged ch_1 for 1200"), nil
	})
}

// payRig serves the pay tools as production does: otelhttp around
// middleware.New around mcp-go's streamable HTTP server, with Install's
// logger, tracer and an idempotency store recorded.
type payRig struct {
	url   string
	logs  *leakprobe.Buffer
	spans *tracetest.SpanRecorder
	store *payStore
}

func newPayRig(t *testing.T, extra func(*server.MCPServer)) *payRig {
	t.Helper()
	vendor := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Request-Id", "req_1")
		w.WriteHeader(http.StatusPaymentRequired)
		_, _ = w.Write([]byte(leakprobe.StripeDecline))
	}))
	t.Cleanup(vendor.Close)
	r := &payRig{logs: &leakprobe.Buffer{}, spans: tracetest.NewSpanRecorder(), store: &payStore{Store: idempotency.NewMemoryStore()}}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(r.spans))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	logger := slog.New(slog.NewJSONHandler(r.logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	s := server.NewMCPServer("payments", "1.0.0", server.WithRecovery())
	toolerrmcpgo.Install(s, toolerrmcpgo.WithLogger(logger), toolerrmcpgo.WithTracerProvider(tp),
		toolerrmcpgo.WithIdempotency(r.store))
	payTools(s, vendor.URL)
	if extra != nil {
		extra(s)
	}
	mux := http.NewServeMux()
	mux.Handle("/mcp", server.NewStreamableHTTPServer(s, server.WithStateLess(true)))
	stack := middleware.New(middleware.WithLogger(logger), middleware.WithTracerProvider(tp))(mux)
	srv := httptest.NewServer(otelhttp.NewHandler(stack, "mcp", otelhttp.WithTracerProvider(tp)))
	t.Cleanup(srv.Close)
	r.url = srv.URL + "/mcp"
	return r
}

// payWire is everything the client received: each answer's head and body.
func payWire(w *wire) []byte {
	var b bytes.Buffer
	for _, ex := range w.exchanges() {
		for k, vs := range ex.header {
			b.WriteString(k + ": " + strings.Join(vs, ",") + "\n")
		}
		b.WriteString(ex.text() + "\n")
	}
	return b.Bytes()
}

// TestPaymentDataReachesNoSink: an mcp-go server with toolerrmcpgo
// installed, served over streamable HTTP under middleware.New and
// otelhttp, called by mcp-go's own client: a returned Go error, a panic, a
// toolerr error's detail and details and a Stripe decline relayed through
// translate.Response, each holding a card number, an IBAN, an SSN and a
// security code, are isError results with content and a problem object;
// a keyed failing call and its retry replay one stored result. None of the
// planted data is in what the client received (bodies and headers), the
// stored response, the log or the spans; a success is unchanged.
func TestPaymentDataReachesNoSink(t *testing.T) {
	rig := newPayRig(t, nil)
	w := newWire(bearer("tenant-1"))
	a := connectMCPGo(t, rig.url, w, "")
	for _, tool := range []string{"go_error", "panic", "details", "vendor"} {
		t.Run(tool, func(t *testing.T) {
			res, err := a.call(t, tool, map[string]any{"amount": 1200})
			require.NoError(t, err, "a failure is a result, not a protocol error")
			p := problemOf(t, res)
			assert.NotEmpty(t, p["code"])
			assert.NotEmpty(t, textOf(t, res), "the observation is the content")
			b, _ := json.Marshal(res)
			assert.Empty(t, leakprobe.FindPayment(b), "the result holds payment data: %s", b)
		})
	}
	t.Run("keyed failure and retry", func(t *testing.T) {
		first, err := a.callKeyed(t, "keyed", map[string]any{"amount": 1200}, "key-pay-1")
		require.NoError(t, err)
		p := problemOf(t, first)
		assert.Equal(t, toolerr.CodeValidationFailed, p["code"])
		again, err := a.callKeyed(t, "keyed", map[string]any{"amount": 1200}, "key-pay-1")
		require.NoError(t, err)
		problemOf(t, again)
		meta, _ := again["_meta"].(map[string]any)
		assert.Equal(t, true, meta["io.toolerr/idempotent-replayed"], "the retry is the stored result: %v", again)
		stored := rig.store.all()
		require.NotEmpty(t, stored, "the failure was stored")
		for _, s := range stored {
			assert.Empty(t, leakprobe.FindPayment(s), "the store holds payment data: %s", s)
		}
	})
	res, err := a.call(t, "ok", map[string]any{"amount": 1200})
	require.NoError(t, err)
	assert.NotEqual(t, true, res["isError"])
	assert.Equal(t, "charged ch_1 for 1200", textOf(t, res), "a success passes unchanged")

	wired := payWire(w)
	assert.Contains(t, string(wired), "[card ending 4242]", "the client's answers are the ones searched")
	assert.Empty(t, leakprobe.FindPayment(wired), "the client received payment data: %s", wired)
	logs := rig.logs.Bytes()
	assert.Contains(t, string(logs), "toolerr: MCP tool call failed")
	assert.Empty(t, leakprobe.FindPayment(logs), "the log holds payment data: %s", logs)
	spans := spantext.Of(rig.spans.Ended())
	assert.Contains(t, spans, "toolerr.code=")
	assert.Empty(t, leakprobe.FindPayment([]byte(spans)), "a span holds payment data: %s", spans)
}

// TestPaymentDataInAnOwnErrorResult: a handler that builds its own error
// result, mcp.NewToolResultError("card 4242…"), with no Go error behind
// it. docs/mcp.md says such a result keeps its words but has the secrets
// and payment data of its text redacted; the test records whether its
// payment data reaches the client.
func TestPaymentDataInAnOwnErrorResult(t *testing.T) {
	docpage.Says(t, "../../docs/mcp.md",
		"A result a handler marked `IsError` itself, with no Go error behind it, keeps its words in both, but the secrets and payment data of its text are redacted (`Sanitizer.Redact`: a card number becomes `[card ending 4242]`).")
	rig := newPayRig(t, func(s *server.MCPServer) {
		s.AddTool(mcp.NewTool("own_error"), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultError("card " + leakprobe.Card + " declined; " + leakprobe.PaymentText), nil
		})
	})
	w := newWire(nil)
	a := connectMCPGo(t, rig.url, w, "")
	res, err := a.call(t, "own_error", map[string]any{})
	require.NoError(t, err)
	assert.Equal(t, true, res["isError"], "an error result stays one")
	b, _ := json.Marshal(res)
	assert.Empty(t, leakprobe.FindPayment(b), "the result holds payment data: %s", b)
	wired := payWire(w)
	assert.Empty(t, leakprobe.FindPayment(wired), "the client received payment data: %s", wired)
}
