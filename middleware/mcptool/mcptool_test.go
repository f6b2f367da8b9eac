package mcptool_test

import (
	"context"
	"errors"
	"fmt"
	"regexp"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/jsonrpc"
	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/mcptool"
)

// trackArgs are the arguments of the test tool.
type trackArgs struct {
	Limit int `json:"limit,omitempty"`
}

// trackOut is the typed output of the test tool.
type trackOut struct {
	Shipments []string `json:"shipments"`
}

var hexID = regexp.MustCompile(`^[0-9a-f]{32}$`)

// limitError is the validation error the test tools return.
func limitError() error {
	e := toolerr.Default().New(toolerr.CodeValidationFailed, "limit must be at most 100").
		WithField("limit").
		WithAllowedValues(toolerr.Range{Minimum: 1, Maximum: 100}).
		WithHint("Reduce limit to 100 or less.")
	return fmt.Errorf("track: %w", e)
}

func TestValidationError(t *testing.T) {
	quiet, _ := newLogger()
	untyped := func(ctx context.Context, _ *mcp.CallToolRequest, in trackArgs) (*mcp.CallToolResult, any, error) {
		return nil, nil, limitError()
	}
	typed := func(ctx context.Context, _ *mcp.CallToolRequest, in trackArgs) (*mcp.CallToolResult, trackOut, error) {
		return nil, trackOut{}, limitError()
	}
	server := newServer()
	server.AddReceivingMiddleware(mcptool.Middleware(mcptool.WithLogger(quiet)))
	mcptool.AddTool(server, &mcp.Tool{Name: "track_untyped"}, untyped, mcptool.WithLogger(quiet))
	mcptool.AddTool(server, &mcp.Tool{Name: "track_typed"}, typed, mcptool.WithLogger(quiet))
	cs := connect(t, server)

	for _, tool := range []string{"track_untyped", "track_typed"} {
		t.Run(tool, func(t *testing.T) {
			res := call(t, cs, tool, map[string]any{"limit": 500})
			require.True(t, res.IsError)
			p := problem(t, res)
			assert.Equal(t, "VALIDATION_FAILED", p["code"])
			assert.Equal(t, "validation", p["category"])
			assert.Equal(t, "limit", p["field"])
			assert.Equal(t, map[string]any{"minimum": 1.0, "maximum": 100.0}, p["allowed_values"])
			assert.Equal(t, "Reduce limit to 100 or less.", p["hint"])
			assert.Equal(t, "limit must be at most 100", p["detail"])
			assert.Equal(t, tool, p["tool"])
			assert.Regexp(t, hexID, p["request_id"])
			assert.NotContains(t, p, "trace_id")
			assert.Equal(t, []string{"VALIDATION_FAILED (validation): limit must be at most 100\nretryable: false\nfield: limit\nallowed_values: {\"minimum\":1,\"maximum\":100}\nhint: Reduce limit to 100 or less.\nrequest_id: " + p["request_id"].(string)}, text(t, res),
				"the observation: every member an agent acts on, for a client that reads Content only")
		})
	}
}

func TestTypedWithoutMiddleware(t *testing.T) {
	quiet, _ := newLogger()
	typed := func(ctx context.Context, _ *mcp.CallToolRequest, in trackArgs) (*mcp.CallToolResult, trackOut, error) {
		return nil, trackOut{}, limitError()
	}
	server := newServer()
	mcptool.AddTool(server, &mcp.Tool{Name: "track"}, typed, mcptool.WithLogger(quiet))
	res := call(t, connect(t, server), "track", map[string]any{"limit": 500})

	// The SDK keeps only the error's text: the line, never the Go chain.
	assert.True(t, res.IsError)
	assert.Nil(t, res.StructuredContent)
	lines := text(t, res)
	require.Len(t, lines, 1)
	assert.Regexp(t, `^VALIDATION_FAILED \(validation\): limit must be at most 100\nretryable: false\nfield: limit\n`+
		`allowed_values: \{"minimum":1,"maximum":100\}\nhint: Reduce limit to 100 or less\.\nrequest_id: [0-9a-f]{32}$`, lines[0],
		"the request id too: the text is all the client gets")
}

func TestGoErrors(t *testing.T) {
	tests := []struct {
		name      string
		err       error
		code      string
		retryable bool
	}{
		{"unknown", errors.New("pq: password authentication failed for user admin at 10.0.0.7"), toolerr.CodeInternal, false},
		{"deadline", fmt.Errorf("fetch rates: %w", context.DeadlineExceeded), toolerr.CodeUpstreamTimeout, false},
		{"canceled", fmt.Errorf("fetch rates: %w", context.Canceled), toolerr.CodeCancelled, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			logger, logs := newLogger()
			h := func(ctx context.Context, _ *mcp.CallToolRequest, in trackArgs) (*mcp.CallToolResult, any, error) {
				return nil, nil, tt.err
			}
			server := newServer()
			mcptool.AddTool(server, &mcp.Tool{Name: "rates"}, h, mcptool.WithLogger(logger))
			res := call(t, connect(t, server), "rates", map[string]any{})

			require.True(t, res.IsError)
			p := problem(t, res)
			assert.Equal(t, tt.code, p["code"])
			assert.Equal(t, tt.retryable, p["retryable"])
			lines := text(t, res)
			require.Len(t, lines, 1)
			for _, s := range append(lines, fmt.Sprint(p)) {
				assert.NotContains(t, s, "fetch rates")
				assert.NotContains(t, s, "10.0.0.7")
			}
			assert.Contains(t, logs.String(), `"code":"`+tt.code+`"`)
		})
	}
}

func TestIdempotentTimeoutIsRetryable(t *testing.T) {
	quiet, _ := newLogger()
	h := func(ctx context.Context, _ *mcp.CallToolRequest, in trackArgs) (*mcp.CallToolResult, any, error) {
		return nil, nil, context.DeadlineExceeded
	}
	server := newServer()
	mcptool.AddTool(server, &mcp.Tool{Name: "rates"}, h, mcptool.WithLogger(quiet), mcptool.WithIdempotent(true))
	p := problem(t, call(t, connect(t, server), "rates", map[string]any{}))
	assert.Equal(t, toolerr.CodeUpstreamTimeout, p["code"])
	assert.Equal(t, true, p["retryable"])
}

func TestToolerrTextIsSanitized(t *testing.T) {
	quiet, _ := newLogger()
	h := func(ctx context.Context, _ *mcp.CallToolRequest, in trackArgs) (*mcp.CallToolResult, any, error) {
		return nil, nil, toolerr.Default().New(toolerr.CodeNotFound, "no row in db-7.prod.internal for token ghp_R4nd0mT0kenV4lueF0rMcpT3st1ngQwErTy9")
	}
	server := newServer()
	mcptool.AddTool(server, &mcp.Tool{Name: "track"}, h, mcptool.WithLogger(quiet))
	res := call(t, connect(t, server), "track", map[string]any{})

	p := problem(t, res)
	assert.Equal(t, toolerr.CodeNotFound, p["code"])
	for _, s := range append(text(t, res), p["detail"].(string)) {
		assert.NotContains(t, s, "db-7.prod.internal")
		assert.NotContains(t, s, "ghp_R4nd0mT0ken")
	}
}

func TestPanic(t *testing.T) {
	logger, logs := newLogger()
	h := func(ctx context.Context, _ *mcp.CallToolRequest, in trackArgs) (*mcp.CallToolResult, trackOut, error) {
		if in.Limit > 0 {
			panic("nil map in ledger at db.internal")
		}
		return nil, trackOut{Shipments: []string{"S-1"}}, nil
	}
	server := newServer()
	server.AddReceivingMiddleware(mcptool.Middleware(mcptool.WithLogger(logger)))
	mcptool.AddTool(server, &mcp.Tool{Name: "track"}, h, mcptool.WithLogger(logger))
	cs := connect(t, server)

	res := call(t, cs, "track", map[string]any{"limit": 1})
	require.True(t, res.IsError)
	p := problem(t, res)
	assert.Equal(t, toolerr.CodeInternal, p["code"])
	assert.Equal(t, "track", p["tool"])
	assert.Regexp(t, hexID, p["request_id"])
	lines := text(t, res)
	require.Len(t, lines, 1)
	assert.Regexp(t, `^INTERNAL_ERROR`, lines[0])
	for _, s := range append(lines, fmt.Sprint(p)) {
		assert.NotContains(t, s, "nil map")
		assert.NotContains(t, s, "panic")
	}
	assert.Contains(t, logs.String(), "nil map in ledger")
	assert.Contains(t, logs.String(), `"stack":"goroutine`)

	// The server is still serving.
	assert.False(t, call(t, cs, "track", map[string]any{"limit": 0}).IsError)
}

func TestMiddlewareRecoversUnwrappedPanic(t *testing.T) {
	logger, logs := newLogger()
	server := newServer()
	server.AddReceivingMiddleware(mcptool.Middleware(mcptool.WithLogger(logger)))
	server.AddTool(&mcp.Tool{Name: "raw", InputSchema: map[string]any{"type": "object"}},
		func(context.Context, *mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var tools []string
			_ = tools[3] // a runtime panic: index out of range
			return nil, nil
		})
	res := call(t, connect(t, server), "raw", map[string]any{})

	require.True(t, res.IsError)
	p := problem(t, res)
	assert.Equal(t, toolerr.CodeInternal, p["code"])
	assert.Equal(t, "raw", p["tool"])
	assert.NotContains(t, text(t, res)[0], "index out of range")
	assert.Contains(t, logs.String(), "index out of range")
}

func TestRequestIDFromContext(t *testing.T) {
	quiet, _ := newLogger()
	h := func(ctx context.Context, _ *mcp.CallToolRequest, in trackArgs) (*mcp.CallToolResult, any, error) {
		return nil, nil, limitError()
	}
	withID := func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			return next(toolerr.WithRequestID(ctx, "call-1"), method, req)
		}
	}
	server := newServer()
	server.AddReceivingMiddleware(withID)
	mcptool.AddTool(server, &mcp.Tool{Name: "track"}, h, mcptool.WithLogger(quiet))
	p := problem(t, call(t, connect(t, server), "track", map[string]any{}))
	assert.Equal(t, "call-1", p["request_id"])
}

func TestSuccessUntouched(t *testing.T) {
	h := func(ctx context.Context, _ *mcp.CallToolRequest, in trackArgs) (*mcp.CallToolResult, trackOut, error) {
		return nil, trackOut{Shipments: []string{"S-1", "S-2"}}, nil
	}
	own := func(ctx context.Context, _ *mcp.CallToolRequest, in trackArgs) (*mcp.CallToolResult, any, error) {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "the tool's own"}}}, nil, nil
	}
	server := newServer()
	server.AddReceivingMiddleware(mcptool.Middleware())
	mcptool.AddTool(server, &mcp.Tool{Name: "track"}, h)
	mcptool.AddTool(server, &mcp.Tool{Name: "own"}, own)
	cs := connect(t, server)

	res := call(t, cs, "track", map[string]any{"limit": 2})
	assert.False(t, res.IsError)
	assert.Equal(t, map[string]any{"shipments": []any{"S-1", "S-2"}}, res.StructuredContent)
	assert.Equal(t, []string{`{"shipments":["S-1","S-2"]}`}, text(t, res))

	res = call(t, cs, "own", map[string]any{})
	assert.True(t, res.IsError)
	assert.Nil(t, res.StructuredContent)
	assert.Equal(t, []string{"the tool's own"}, text(t, res))
}

func TestProtocolErrors(t *testing.T) {
	quiet, _ := newLogger()
	h := func(ctx context.Context, _ *mcp.CallToolRequest, in trackArgs) (*mcp.CallToolResult, any, error) {
		return nil, nil, fmt.Errorf("decode: %w", &jsonrpc.Error{Code: jsonrpc.CodeInvalidParams, Message: "cursor is malformed"})
	}
	server := newServer()
	server.AddReceivingMiddleware(mcptool.Middleware(mcptool.WithLogger(quiet)))
	mcptool.AddTool(server, &mcp.Tool{Name: "track"}, h, mcptool.WithLogger(quiet))
	cs := connect(t, server)
	ctx := context.Background()

	t.Run("unknown tool", func(t *testing.T) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "nope", Arguments: map[string]any{}})
		assert.Nil(t, res)
		var rpc *jsonrpc.Error
		require.ErrorAs(t, err, &rpc)
		assert.Equal(t, int64(jsonrpc.CodeInvalidParams), rpc.Code)
		assert.Contains(t, rpc.Message, `unknown tool "nope"`)
	})
	t.Run("handler's jsonrpc error", func(t *testing.T) {
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "track", Arguments: map[string]any{}})
		assert.Nil(t, res)
		var rpc *jsonrpc.Error
		require.ErrorAs(t, err, &rpc)
		assert.Equal(t, int64(jsonrpc.CodeInvalidParams), rpc.Code)
		assert.Equal(t, "cursor is malformed", rpc.Message)
	})
	t.Run("arguments against the schema", func(t *testing.T) {
		// The SDK rejects these before the handler runs, with a bare
		// message; the middleware makes it VALIDATION_FAILED at the field
		// (arguments_test.go has the rest).
		res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "track", Arguments: map[string]any{"limit": "many"}})
		require.NoError(t, err)
		assert.True(t, res.IsError)
		p := problem(t, res)
		assert.Equal(t, "VALIDATION_FAILED", p["code"])
		assert.Equal(t, "/limit", p["field"])
		require.Len(t, text(t, res), 1)
		assert.True(t, strings.HasPrefix(text(t, res)[0], "VALIDATION_FAILED (validation): limit must be an integer"), text(t, res)[0])
	})
}
