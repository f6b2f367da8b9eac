package mcptool_test

import (
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/mcptool"
)

// hsArgs are the arguments of the MCP tools of the stack.
type hsArgs struct {
	Note string `json:"note,omitempty"`
}

// hsOut is the typed output of hostile_typed.
type hsOut struct {
	OK bool `json:"ok"`
}

// hsMCPServer returns the MCP server of the stack: hostile tools wrapped
// by mcptool, one unwrapped tool that panics, and mcptool.Middleware.
func hsMCPServer(logger *slog.Logger) *mcp.Server {
	opt := mcptool.WithLogger(logger)
	s := mcp.NewServer(&mcp.Implementation{Name: "harbor", Version: "v0.0.1"}, nil)
	s.AddReceivingMiddleware(mcptool.Middleware(opt))
	type untyped = func(context.Context, *mcp.CallToolRequest, hsArgs) (*mcp.CallToolResult, any, error)
	failing := func(err func() error) untyped {
		return func(context.Context, *mcp.CallToolRequest, hsArgs) (*mcp.CallToolResult, any, error) {
			return nil, nil, err()
		}
	}
	mcptool.AddTool(s, &mcp.Tool{Name: "hostile_error"}, failing(hsHostileError), opt)
	mcptool.AddTool(s, &mcp.Tool{Name: "hostile_typed"}, func(context.Context, *mcp.CallToolRequest, hsArgs) (*mcp.CallToolResult, hsOut, error) {
		return nil, hsOut{}, hsHostileError()
	}, opt)
	mcptool.AddTool(s, &mcp.Tool{Name: "go_error_dsn"}, failing(func() error {
		return fmt.Errorf("connect %s: password authentication failed", hsDSN)
	}), opt)
	mcptool.AddTool(s, &mcp.Tool{Name: "benign_detail"}, failing(func() error {
		return toolerr.Default().New(toolerr.CodeNotFound, hsBenignDetail).WithDetails(hsBenign)
	}), opt)
	mcptool.AddTool(s, &mcp.Tool{Name: "own_request_id"}, failing(func() error {
		return toolerr.Default().New(toolerr.CodeNotFound, "No order ord_8f3a2b91.").WithRequestID("handler-own-77")
	}), opt)
	panics := func(context.Context, *mcp.CallToolRequest, hsArgs) (*mcp.CallToolResult, any, error) {
		hsPanic()
		return nil, nil, nil
	}
	mcptool.AddTool(s, &mcp.Tool{Name: "panic_secret"}, panics, opt)
	mcp.AddTool(s, &mcp.Tool{Name: "unwrapped_panic"}, panics) // only the Middleware guards it
	hsIntentTools(s, opt)
	return s
}

// assertMCPExits calls tool over cs and checks every exit of its failure:
// the structured problem, the text content, the HTTP exchange that carried
// it (headers and raw body), and the log records the call wrote. It
// returns the problem object and the exchange.
func (rig *hsRig) assertMCPExits(t *testing.T, cs *mcp.ClientSession, wire *hsWire, tool string) (map[string]any, *hsExchange) {
	t.Helper()
	before := len(rig.records(t))
	res := call(t, cs, tool, map[string]any{})
	require.True(t, res.IsError, "%s fails as a tool result", tool)
	structured, err := json.Marshal(problem(t, res))
	require.NoError(t, err)
	hsAssertClean(t, "structured content", string(structured))
	hsAssertNoStack(t, "structured content", string(structured))
	assert.NoError(t, toolerr.Validate(structured), "the problem keeps the contract: %s", structured)
	lines := text(t, res)
	require.NotEmpty(t, lines)
	for _, s := range lines {
		hsAssertClean(t, "text content", s)
		hsAssertNoStack(t, "text content", s)
	}
	ex := wire.callOf(t, tool)
	hsAssertHeadersClean(t, ex.header)
	hsAssertClean(t, "HTTP body", ex.text())
	hsAssertNoStack(t, "HTTP body", ex.text())
	recs := rig.records(t)[before:]
	require.NotEmpty(t, recs, "the failure of %s is logged", tool)
	for _, rec := range recs {
		hsAssertLogRecord(t, rec)
	}
	return problem(t, res), ex
}

// TestMCPOverHTTPNothingSecretReachesTheAgent calls hostile MCP tools
// with the go-sdk client over the streamable HTTP transport, through
// otelhttp, chi and toolerr's middleware: no secret, internal address or
// stack reaches the client (in the result or on the wire) or the log
// outside cause and stack, and each failure carries the id of the HTTP
// request that carried the call.
func TestMCPOverHTTPNothingSecretReachesTheAgent(t *testing.T) {
	rig := newHSRig(t)
	cs, wire := rig.mcpSession(t, "/mcp")
	assertOurs := func(t *testing.T, p map[string]any, ex *hsExchange) {
		t.Helper()
		id := ex.header.Get("X-Request-Id")
		chiID, _ := rig.chiIDs.Load(ex.probe)
		assert.Equal(t, chiID, id, "X-Request-Id is chi's request id")
		assert.Equal(t, id, p["request_id"], "request_id is the id of the HTTP request of the call")
		trace, _ := p["trace_id"].(string)
		require.True(t, toolerr.ValidTraceID(trace), "trace_id %q", trace)
		for _, s := range rig.traceSpans(t, trace) {
			hsAssertSpan(t, s)
		}
	}

	for _, tc := range []struct{ name, tool string }{
		{"tool error with a secret in every member, untyped output", "hostile_error"},
		{"tool error with a secret in every member, typed output through Middleware", "hostile_typed"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, ex := rig.assertMCPExits(t, cs, wire, tc.tool)
			assertOurs(t, p, ex)
			assert.Equal(t, toolerr.CodeValidationFailed, p["code"])
			items, _ := p["errors"].([]any)
			assert.Len(t, items, 1, "errors[] keeps its item")
			details, _ := p["details"].(map[string]any)
			for k, v := range hsBenign {
				assert.Equal(t, v, details[k], "benign %s survives", k)
			}
		})
	}

	for _, tc := range []struct{ name, tool string }{
		{"panic in a wrapped tool whose value holds secrets", "panic_secret"},
		{"panic in an unwrapped tool, caught by Middleware", "unwrapped_panic"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			before := len(rig.records(t))
			p, ex := rig.assertMCPExits(t, cs, wire, tc.tool)
			assertOurs(t, p, ex)
			assert.Equal(t, toolerr.CodeInternal, p["code"])
			stacks := 0
			for _, rec := range rig.records(t)[before:] {
				if _, ok := rec["stack"].(string); ok {
					stacks++
				}
			}
			assert.Equal(t, 1, stacks, "the redacted stack went to the log")
		})
	}

	t.Run("Go error whose text holds a DSN password", func(t *testing.T) {
		before := len(rig.records(t))
		p, ex := rig.assertMCPExits(t, cs, wire, "go_error_dsn")
		assertOurs(t, p, ex)
		assert.Equal(t, toolerr.CodeInternal, p["code"])
		recs := rig.records(t)[before:]
		require.NotEmpty(t, recs)
		assert.Contains(t, recs[0]["cause"], hsHost, "the operator's cause keeps the host, not the password")
	})

	t.Run("handler sets its own request id on the error", func(t *testing.T) {
		p, ex := rig.assertMCPExits(t, cs, wire, "own_request_id")
		assertOurs(t, p, ex)
		assert.NotEqual(t, "handler-own-77", p["request_id"])
	})

	t.Run("benign identifiers in detail and details survive", func(t *testing.T) {
		p, ex := rig.assertMCPExits(t, cs, wire, "benign_detail")
		assertOurs(t, p, ex)
		assert.Equal(t, hsBenignDetail, p["detail"])
		details, _ := p["details"].(map[string]any)
		for k, v := range hsBenign {
			assert.Equal(t, v, details[k], "benign %s survives", k)
		}
		assert.Contains(t, ex.text(), "ord_8f3a2b91")
	})

	t.Run("every exchange on the wire", func(t *testing.T) {
		for _, ex := range wire.exchanges() {
			hsAssertHeadersClean(t, ex.header)
			hsAssertClean(t, "HTTP body of "+ex.probe, ex.text())
		}
	})

	t.Run("every log record and span of the service", rig.sweep)
}
