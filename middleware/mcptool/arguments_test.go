package mcptool_test

import (
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/argcheck"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/middleware/mcptool"
)

// bookArgs are the arguments of a berth-booking tool; its schema is
// bookSchema, which says what struct tags cannot.
type bookArgs struct {
	Vessel string `json:"vessel"`
	Port   string `json:"port"`
	Hours  int    `json:"hours"`
	ETA    string `json:"eta,omitempty"`
}

const bookSchema = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["vessel", "port", "hours"],
  "properties": {
    "vessel": {"type": "string", "pattern": "^IMO[0-9]{7}$"},
    "port": {"enum": ["rotterdam", "hamburg", "antwerp"]},
    "hours": {"type": "integer", "minimum": 1, "maximum": 72, "description": "Forecast hours; longer forecasts are capped to 72."},
    "eta": {"type": "string", "format": "date-time"}
  }
}`

// bookTool is the tool definition of book_berth.
func bookTool() *mcp.Tool {
	return &mcp.Tool{Name: "book_berth", Description: "Book a berth.", InputSchema: json.RawMessage(bookSchema)}
}

// booked is book_berth's handler; it must never run on invalid arguments.
func booked(ran *atomic.Int32) func(context.Context, *mcp.CallToolRequest, bookArgs) (*mcp.CallToolResult, any, error) {
	return func(_ context.Context, _ *mcp.CallToolRequest, in bookArgs) (*mcp.CallToolResult, any, error) {
		ran.Add(1)
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "booked " + in.Vessel}}}, nil, nil
	}
}

// TestRejectedArgumentsBecomeValidationFailed: the SDK validates a typed
// tool's arguments before its handler runs and answers a violation with a
// bare message; under the middleware the call gets VALIDATION_FAILED with
// every violation, its field, allowed values and repair, for a wrapped
// tool and for one registered with plain mcp.AddTool alike.
func TestRejectedArgumentsBecomeValidationFailed(t *testing.T) {
	quiet, _ := newLogger()
	for _, wrapped := range []bool{true, false} {
		t.Run(fmt.Sprintf("wrapped=%v", wrapped), func(t *testing.T) {
			server := newServer()
			server.AddReceivingMiddleware(mcptool.Middleware(mcptool.WithLogger(quiet)))
			var ran atomic.Int32
			if wrapped {
				mcptool.AddTool(server, bookTool(), booked(&ran), mcptool.WithLogger(quiet))
			} else {
				mcp.AddTool(server, bookTool(), booked(&ran))
			}
			cs := connect(t, server)
			args := map[string]any{"vessel": "IMO9321483", "port": "Rotterdam", "hours": 100, "eta": "2026-03-14 09:30:00Z"}
			res := call(t, cs, "book_berth", args)
			require.True(t, res.IsError)
			assert.Zero(t, ran.Load(), "the handler never runs on invalid arguments")
			p := problem(t, res)
			assert.Equal(t, "VALIDATION_FAILED", p["code"])
			assert.Equal(t, "book_berth", p["tool"])
			assert.NotEmpty(t, p["request_id"])
			vs, _ := p["violations"].([]any)
			var fields []string
			for _, v := range vs {
				fields = append(fields, v.(map[string]any)["field"].(string))
			}
			assert.ElementsMatch(t, []string{"/port", "/hours", "/eta"}, fields)
			example, _ := p["example_request"].(map[string]any)
			assert.Equal(t, map[string]any{"vessel": "IMO9321483", "port": "rotterdam", "hours": float64(72),
				"eta": "2026-03-14T09:30:00Z"}, example)
			obs := text(t, res)[0]
			assert.True(t, strings.HasPrefix(obs, "VALIDATION_FAILED (validation): 3 arguments are invalid"), obs)
			assert.Contains(t, obs, "example_request: ")

			// The repaired call runs.
			res = call(t, cs, "book_berth", example)
			require.False(t, res.IsError, "%v", text(t, res))
			assert.Equal(t, int32(1), ran.Load())

			// Missing values nobody can derive: ask the user.
			res = call(t, cs, "book_berth", map[string]any{"port": "hamburg"})
			p = problem(t, res)
			assert.Contains(t, p["hint"], "Ask the user for hours (Forecast hours) and vessel")
			assert.Nil(t, p["example_request"])
		})
	}
}

// TestUnwrappedToolsGetTheSameErrors: a handler registered with plain
// mcp.AddTool, or with the server's raw AddTool, gets from the middleware
// the error Wrap would have made: same code, field, hint and tool.
func TestUnwrappedToolsGetTheSameErrors(t *testing.T) {
	quiet, _ := newLogger()
	fail := func(context.Context, *mcp.CallToolRequest, quoteIn) (*mcp.CallToolResult, any, error) {
		return nil, nil, fmt.Errorf("lookup: %w", toolerr.Default().New(toolerr.CodeNotFound, "no symbol ZZZZ is listed.").WithField("symbol"))
	}
	failTyped := func(ctx context.Context, req *mcp.CallToolRequest, in quoteIn) (*mcp.CallToolResult, quoteOut, error) {
		_, _, err := fail(ctx, req, in)
		return nil, quoteOut{}, err
	}
	server := newServer()
	server.AddReceivingMiddleware(mcptool.Middleware(mcptool.WithLogger(quiet)))
	mcptool.AddTool(server, &mcp.Tool{Name: "wrapped"}, fail, mcptool.WithLogger(quiet))
	mcp.AddTool(server, &mcp.Tool{Name: "plain"}, fail)
	mcp.AddTool(server, &mcp.Tool{Name: "plain_typed"}, failTyped)
	server.AddTool(&mcp.Tool{Name: "raw", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var r mcp.CallToolResult
			r.SetError(&net.OpError{Op: "dial", Net: "tcp", Addr: &net.TCPAddr{IP: net.IPv4(10, 0, 0, 7), Port: 5432},
				Err: os.NewSyscallError("connect", syscall.ECONNREFUSED)})
			return &r, nil
		})
	cs := connect(t, server)
	args := map[string]any{"symbol": "ZZZZ"}

	want := problem(t, call(t, cs, "wrapped", args))
	for _, name := range []string{"plain", "plain_typed"} {
		res := call(t, cs, name, args)
		require.True(t, res.IsError, name)
		got := problem(t, res)
		for _, member := range []string{"code", "category", "status", "detail", "field", "hint", "human_hint", "retryable"} {
			assert.Equal(t, want[member], got[member], "%s: %s", name, member)
		}
		assert.Equal(t, name, got["tool"])
		assert.Equal(t, name == "plain", res.StructuredContent != nil,
			"structuredContent only where the tool declares no outputSchema (%s)", name)
		assert.True(t, strings.HasPrefix(text(t, res)[0], "NOT_FOUND (not_found): no symbol ZZZZ is listed."), text(t, res)[0])
	}

	res := call(t, cs, "raw", args)
	p := problem(t, res)
	assert.Equal(t, "UPSTREAM_UNAVAILABLE", p["code"], "a refused connection is classified as Wrap would")
	assert.NotContains(t, text(t, res)[0], "10.0.0.7", "the cause's text is sanitized")

	// A result the handler built itself stays as it is.
	server.AddTool(&mcp.Tool{Name: "own", InputSchema: json.RawMessage(`{"type":"object"}`)},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "the tool's own"}}}, nil
		})
	res = call(t, cs, "own", args)
	assert.Equal(t, []string{"the tool's own"}, text(t, res))
	assert.Nil(t, res.Meta[mcptool.MetaProblem])
}

// TestToolLookupPagesThroughTheList: the middleware finds a tool's schema
// past the first page of tools/list, and a tool replaced under the same
// name is checked against its new schema.
func TestToolLookupPagesThroughTheList(t *testing.T) {
	quiet, _ := newLogger()
	server := mcp.NewServer(&mcp.Implementation{Name: "many", Version: "v1"}, &mcp.ServerOptions{PageSize: 2})
	server.AddReceivingMiddleware(mcptool.Middleware(mcptool.WithLogger(quiet)))
	var ran atomic.Int32
	for i := range 7 {
		mcp.AddTool(server, &mcp.Tool{Name: fmt.Sprintf("tool_%d", i), InputSchema: json.RawMessage(bookSchema)}, booked(&ran))
	}
	cs := connect(t, server)
	p := problem(t, call(t, cs, "tool_6", map[string]any{"vessel": "IMO9321483", "port": "antwerp", "hours": "6"}))
	assert.Equal(t, "/hours", p["field"])
	assert.Equal(t, float64(6), p["suggested_value"])

	mcp.AddTool(server, &mcp.Tool{Name: "tool_6", InputSchema: json.RawMessage(
		`{"type":"object","properties":{"hours":{"type":"string"}}}`)}, booked(&ran))
	p = problem(t, call(t, cs, "tool_6", map[string]any{"hours": 6}))
	assert.Equal(t, "6", p["suggested_value"], "the replaced tool's schema is the one checked")
}

// TestMiddlewareAndArgcheckAgree: the middleware's VALIDATION_FAILED is
// the one argcheck builds from the tool's schema, completed with the
// call's tool name and ids.
func TestMiddlewareAndArgcheckAgree(t *testing.T) {
	quiet, _ := newLogger()
	server := newServer()
	server.AddReceivingMiddleware(mcptool.Middleware(mcptool.WithLogger(quiet)))
	var ran atomic.Int32
	mcp.AddTool(server, bookTool(), booked(&ran))
	args := map[string]any{"vessel": "IMO932", "port": "hamburgh", "hours": 3, "colour": "red"}
	p := problem(t, call(t, connect(t, server), "book_berth", args))

	schema, err := argcheck.Compile(bookSchema)
	require.NoError(t, err)
	raw, _ := json.Marshal(args)
	e, _ := toolerr.From(schema.CheckJSON(raw))
	require.NotNil(t, e)
	var direct map[string]any
	require.NoError(t, json.Unmarshal(e.WithTool("book_berth").WithRequestID(p["request_id"].(string)).AppendJSON(nil), &direct))
	assert.Equal(t, direct, p)
}

// TestValidCallsAreNotLookedAt: the middleware reads a tool's definition
// (tools/list) for a failed call only; a valid call passes with nothing
// read and nothing validated beyond what the SDK does.
func TestValidCallsAreNotLookedAt(t *testing.T) {
	quiet, _ := newLogger()
	server := newServer()
	var lists atomic.Int32
	// Added first, so it runs below toolerr's and sees the lists it sends.
	server.AddReceivingMiddleware(func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			if method == "tools/list" {
				lists.Add(1)
			}
			return next(ctx, method, req)
		}
	})
	server.AddReceivingMiddleware(mcptool.Middleware(mcptool.WithLogger(quiet)))
	var ran atomic.Int32
	mcp.AddTool(server, bookTool(), booked(&ran))
	cs := connect(t, server)
	for range 5 {
		res := call(t, cs, "book_berth", map[string]any{"vessel": "IMO9321483", "port": "hamburg", "hours": 12})
		require.False(t, res.IsError)
	}
	assert.Equal(t, int32(5), ran.Load())
	assert.Zero(t, lists.Load(), "valid calls read no tool definition")

	res := call(t, cs, "book_berth", map[string]any{"vessel": "IMO9321483", "port": "hamburg", "hours": 99})
	require.True(t, res.IsError)
	assert.Equal(t, int32(1), lists.Load(), "a rejected call reads it once")
}

// TestAHandlersOwnErrorIsTheCause: a raw tool's handler (the SDK does not
// validate its arguments) fails for its own reason while the arguments
// also break the schema: the agent is told the handler's error, not a
// validation failure that did not happen.
func TestAHandlersOwnErrorIsTheCause(t *testing.T) {
	quiet, _ := newLogger()
	server := newServer()
	server.AddReceivingMiddleware(mcptool.Middleware(mcptool.WithLogger(quiet)))
	server.AddTool(bookTool(), func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		var r mcp.CallToolResult
		r.SetError(toolerr.Default().New(toolerr.CodeConflict, "The berth is taken."))
		return &r, nil
	})
	p := problem(t, call(t, connect(t, server), "book_berth", map[string]any{"port": "Hamburg", "hours": 500}))
	assert.Equal(t, "CONFLICT", p["code"])
	assert.Nil(t, p["violations"])
}

// TestTypedErrorsOfMCPTools: a tool that returns its driver's or SDK's
// typed error, wrapped, gets it classified: the built-in database/sql
// mapper, and one added with WithErrorMappers.
func TestTypedErrorsOfMCPTools(t *testing.T) {
	quiet, _ := newLogger()
	type quota struct{ error }
	mapper := classify.MapperFunc(func(err error) (classify.Outcome, bool) {
		var q quota
		if !errors.As(err, &q) {
			return classify.Outcome{}, false
		}
		return classify.Outcome{Vendor: "acme", Status: http.StatusTooManyRequests, Header: http.Header{"Retry-After": {"3"}}}, true
	})
	server := newServer()
	fail := func(err error) func(context.Context, *mcp.CallToolRequest, quoteIn) (*mcp.CallToolResult, any, error) {
		return func(context.Context, *mcp.CallToolRequest, quoteIn) (*mcp.CallToolResult, any, error) {
			return nil, nil, err
		}
	}
	mcptool.AddTool(server, &mcp.Tool{Name: "order"}, fail(fmt.Errorf("load: %w", sql.ErrNoRows)), mcptool.WithLogger(quiet))
	mcptool.AddTool(server, &mcp.Tool{Name: "sync"}, fail(fmt.Errorf("sync: %w", quota{errors.New("quota")})),
		mcptool.WithLogger(quiet), mcptool.WithErrorMappers(mapper))
	cs := connect(t, server)
	p := problem(t, call(t, cs, "order", map[string]any{"symbol": "A"}))
	assert.Equal(t, "NOT_FOUND", p["code"])
	p = problem(t, call(t, cs, "sync", map[string]any{"symbol": "A"}))
	assert.Equal(t, "RATE_LIMITED", p["code"])
	assert.Equal(t, float64(3000), p["retry_after_ms"])
}
