package mcptool_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/sdk/trace/tracetest"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/idempotency/storetest/leaktest"
	"github.com/toolerr/toolerr/internal/leakprobe"
	"github.com/toolerr/toolerr/middleware/mcptool"
)

// TestNoMCPSinkHoldsASecret: MCP tools that fail with the planted secrets
// in a detail, a cause, a Go error and a panic, with idempotency over a
// store that keeps every byte it is given, leave none in the result the
// client decodes (first and replayed), the JSON log, the spans (real SDK)
// or the store.
func TestNoMCPSinkHoldsASecret(t *testing.T) {
	planted := leakprobe.Sentence()
	spans := tracetest.NewSpanRecorder()
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(spans))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	logger, logs := newLogger()
	store := leaktest.NewWrittenStore()
	opts := []mcptool.Option{mcptool.WithLogger(logger), mcptool.WithTracerProvider(tp),
		mcptool.WithIdempotency(store, idempotency.SharedAnonymousScope())}
	server := newServer()
	server.AddReceivingMiddleware(mcptool.Middleware(opts...))
	destructive := &mcp.ToolAnnotations{DestructiveHint: ptr(true)}
	tools := map[string]func(context.Context, *mcp.CallToolRequest, idemIn) (*mcp.CallToolResult, any, error){
		// NOT_FOUND is kept, so the store holds the rendered failure.
		"kept_failure": func(context.Context, *mcp.CallToolRequest, idemIn) (*mcp.CallToolResult, any, error) {
			return nil, nil, toolerr.Default().New(toolerr.CodeNotFound, planted).WithHint("Use " + planted).
				WithCause(fmt.Errorf("lookup with %s: %w", planted, errors.New(planted)))
		},
		"go_error": func(context.Context, *mcp.CallToolRequest, idemIn) (*mcp.CallToolResult, any, error) {
			return nil, nil, fmt.Errorf("charging with %s: %w", planted, errors.New(planted))
		},
		"panics": func(context.Context, *mcp.CallToolRequest, idemIn) (*mcp.CallToolResult, any, error) {
			panic("charging failed: " + planted)
		},
	}
	for name, h := range tools {
		mcptool.AddTool(server, &mcp.Tool{Name: name, Annotations: destructive}, h, opts...)
	}
	cs := connect(t, server)
	for name := range tools {
		for i := range 2 {
			res := callKeyed(t, cs, name, idemIn{To: "Oslo"}, "op-"+name)
			assert.True(t, res.IsError, "%s fails", name)
			b, err := json.Marshal(res)
			require.NoError(t, err)
			leaked, mark := leakprobe.Find(b)
			assert.Empty(t, leaked, "%s call %d: the result holds %q: %s", name, i, mark, b)
		}
	}
	assert.Contains(t, store.Written(t), "NOT_FOUND", "the kept failure is stored")
	leaked, mark := leakprobe.Find([]byte(store.Written(t)))
	assert.Empty(t, leaked, "the store holds %q: %s", mark, store.Written(t))

	written := logs.String()
	for _, want := range []string{`"cause":`, `"stack":`} {
		assert.Contains(t, written, want, "the log has the field the test means to search")
	}
	leaked, mark = leakprobe.Find([]byte(written))
	assert.Empty(t, leaked, "the log holds %q: %s", mark, written)

	var all strings.Builder
	for _, s := range spans.Ended() {
		for _, kv := range s.Attributes() {
			all.WriteString(string(kv.Key) + "=" + kv.Value.String() + "\n")
		}
		for _, ev := range s.Events() {
			for _, kv := range ev.Attributes {
				all.WriteString(ev.Name + " " + string(kv.Key) + "=" + kv.Value.String() + "\n")
			}
		}
	}
	assert.Contains(t, all.String(), "exception.stacktrace=", "the panic's stack is on its span")
	leaked, mark = leakprobe.Find([]byte(all.String()))
	assert.Empty(t, leaked, "a span holds %q: %s", mark, all.String())
}
