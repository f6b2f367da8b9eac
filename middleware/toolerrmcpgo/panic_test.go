package toolerrmcpgo_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/toolerrmcpgo"
)

// TestBareWithRecoveryLeaksThePanic reproduces the bug report: mcp-go's
// WithRecovery sends the panic value as the JSON-RPC error's message.
func TestBareWithRecoveryLeaksThePanic(t *testing.T) {
	s := (&orders{}).server(installSkipped, nil, server.WithRecovery())
	a := handle(t, context.Background(), s, callMessage("nil_map", map[string]any{}))
	require.NotNil(t, a.Error)
	assert.Equal(t, "panic recovered in nil_map tool handler: assignment to entry in nil map", a.Error.Message)
}

// TestPanicsBecomeInternalError: a panic is INTERNAL_ERROR whether or not
// WithRecovery is set and whichever side of toolerr it sits: the value
// (here a password) reaches no byte of the answer; the log has the
// panic's text, redacted, and the stack when toolerr caught the panic
// itself (WithRecovery inside toolerr has already dropped it).
func TestPanicsBecomeInternalError(t *testing.T) {
	for _, pl := range placements {
		t.Run(pl.name, func(t *testing.T) {
			logger, logs := newLogger()
			s := (&orders{}).server(pl.p, []toolerrmcpgo.Option{toolerrmcpgo.WithLogger(logger)})
			for _, tool := range []string{"nil_map", "panic_secret"} {
				before := len(logs.failures(t))
				raw, err := json.Marshal(s.HandleMessage(context.Background(), callMessage(tool, map[string]any{})))
				require.NoError(t, err)
				for _, leak := range []string{dbSecret, dbHost, "nil map", "panic:", "panic recovered", "goroutine"} {
					assert.NotContains(t, string(raw), leak, tool)
				}
				var a answer
				require.NoError(t, json.Unmarshal(raw, &a))
				require.Nil(t, a.Error, "%s: a tool result, not a protocol error", tool)
				p := problemOf(t, a.Result)
				assert.Equal(t, toolerr.CodeInternal, p["code"])
				assert.Equal(t, tool, p["tool"])

				recs := logs.failures(t)[before:]
				require.Len(t, recs, 1, "%s: one log record", tool)
				cause, _ := recs[0]["cause"].(string)
				stack, hasStack := recs[0]["stack"].(string)
				assert.NotContains(t, cause+stack, dbSecret, "%s: the log's cause and stack are redacted", tool)
				if tool == "nil_map" {
					assert.Contains(t, cause, "assignment to entry in nil map", "the operator reads the panic")
				}
				if pl.p == recoveryInner {
					assert.True(t, strings.HasPrefix(cause, "panic recovered in "+tool+" tool handler: "), cause)
					assert.False(t, hasStack, "WithRecovery kept no stack")
				} else {
					assert.True(t, hasStack && strings.Contains(stack, "toolerrmcpgo_test"), "the stack of the panic: %q", stack)
				}
			}
		})
	}
}

// TestRecoveryMessageIsNotForged: a handler's error that merely reads
// like WithRecovery's but wraps a cause is classified by its cause.
func TestRecoveryMessageIsNotForged(t *testing.T) {
	s := (&orders{}).server(recoveryInner, []toolerrmcpgo.Option{toolerrmcpgo.WithLogger(quiet)})
	p := problemOf(t, callTool(t, s, "fake_recovered", map[string]any{}))
	assert.Equal(t, toolerr.CodeUpstreamTimeout, p["code"])
}

// TestPanicInAMiddlewareAddedAfterInstall: a tool middleware added after
// Install runs inside toolerr; its panic is INTERNAL_ERROR too.
func TestPanicInAMiddlewareAddedAfterInstall(t *testing.T) {
	s := (&orders{}).server(noRecovery, []toolerrmcpgo.Option{toolerrmcpgo.WithLogger(quiet)})
	s.Use(func(next server.ToolHandlerFunc) server.ToolHandlerFunc {
		return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			if req.Params.Name == "ok" {
				panic("audit log unavailable at " + dbHost)
			}
			return next(ctx, req)
		}
	})
	p := problemOf(t, callTool(t, s, "ok", map[string]any{}))
	assert.Equal(t, toolerr.CodeInternal, p["code"])
}

// TestPanicOverHTTPWithoutRecovery: without WithRecovery, a panic under
// toolerr's HTTP middleware is a tool result over HTTP 200, not an HTTP
// error.
func TestPanicOverHTTPWithoutRecovery(t *testing.T) {
	r := newRig(t, noRecovery, nil)
	w := newWire(nil)
	a := connectMCPGo(t, r.url+"/mcp", w, "")
	res, err := a.call(t, "nil_map", map[string]any{"note": "panics"})
	require.NoError(t, err)
	assert.Equal(t, toolerr.CodeInternal, problemOf(t, res)["code"])
	ex := w.callWith(t, "panics")
	assert.Equal(t, http.StatusOK, ex.status)
	assert.Equal(t, "application/json", ex.header.Get("Content-Type"))
}
