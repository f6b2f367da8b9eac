package mcptool_test

import (
	"context"
	"log/slog"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/middleware/mcptool"
)

// thrashRig is an MCP server over in-memory transports whose get_order
// tool fails as outcome says for the call's id, behind the thrash guard.
type thrashRig struct {
	cs      *mcp.ClientSession
	runs    atomic.Int32
	outcome func(id string) (*mcp.CallToolResult, error)
}

func newThrashRig(t *testing.T, opts ...mcptool.Option) *thrashRig {
	rig := &thrashRig{}
	quiet := mcptool.WithLogger(slog.New(slog.DiscardHandler))
	server := mcp.NewServer(&mcp.Implementation{Name: "orders", Version: "v1.0.0"}, nil)
	server.AddReceivingMiddleware(mcptool.Middleware(quiet))
	mcptool.AddTool(server, &mcp.Tool{Name: "get_order", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}},
		func(_ context.Context, _ *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, any, error) {
			rig.runs.Add(1)
			id, _ := in["id"].(string)
			res, err := rig.outcome(id)
			return res, nil, err
		}, append([]mcptool.Option{quiet}, opts...)...)
	st, ct := mcp.NewInMemoryTransports()
	ss, err := server.Connect(t.Context(), st, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = ss.Close() })
	rig.cs, err = mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "v1.0.0"}, nil).Connect(t.Context(), ct, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = rig.cs.Close() })
	return rig
}

// guardOver is the thrash guard over counter, for one stdio client.
func guardOver(counter idempotency.FailureCounter, opts ...idempotency.Option) mcptool.Option {
	return mcptool.WithThrashGuard(counter, append([]idempotency.Option{idempotency.SharedAnonymousScope()}, opts...)...)
}

func (rig *thrashRig) get(t *testing.T, id string) *mcp.CallToolResult {
	return call(t, rig.cs, "get_order", map[string]any{"id": id})
}

func TestMCPThrashGuardRefusesTheThirdIdenticalFailure(t *testing.T) {
	rig := newThrashRig(t, guardOver(nil))
	rig.outcome = func(id string) (*mcp.CallToolResult, error) {
		if id == "ord-1" {
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "order ord-1"}}}, nil
		}
		return nil, toolerr.Default().New(toolerr.CodeNotFound, "No order "+id+".")
	}
	assert.Equal(t, toolerr.CodeNotFound, refusal(t, rig.get(t, "ord-9")))
	assert.Equal(t, toolerr.CodeNotFound, refusal(t, rig.get(t, "ord-9")))
	res := rig.get(t, "ord-9")
	require.Equal(t, toolerr.CodeRepeatedFailure, refusal(t, res))
	p := problem(t, res)
	assert.Equal(t, "get_order", p["tool"])
	assert.Equal(t, "policy", p["category"])
	assert.Equal(t, false, p["retryable"])
	details := p["details"].(map[string]any)
	assert.Equal(t, toolerr.CodeNotFound, details["repeated_code"])
	assert.EqualValues(t, 2, details["failures"])
	assert.Equal(t, "This exact call failed 2 times with NOT_FOUND; do not repeat it: change the arguments, use a fallback tool if one is offered, or ask the user.", p["detail"])
	assert.Contains(t, text(t, res)[0], "REPEATED_FAILURE")
	assert.EqualValues(t, 2, rig.runs.Load(), "the refused call did not run")

	res = rig.get(t, "ord-1")
	assert.False(t, res.IsError, "other arguments run")
	assert.EqualValues(t, 3, rig.runs.Load())
}

func TestMCPThrashGuardCountsOnlyPermanentFailures(t *testing.T) {
	var next atomic.Value
	rig := newThrashRig(t, guardOver(nil))
	rig.outcome = func(string) (*mcp.CallToolResult, error) { return next.Load().(func() (*mcp.CallToolResult, error))() }
	set := func(f func() (*mcp.CallToolResult, error)) { next.Store(f) }

	set(func() (*mcp.CallToolResult, error) {
		return nil, toolerr.Default().New(toolerr.CodeRateLimited, "").WithRetryAfter(time.Second)
	})
	for range 4 {
		assert.Equal(t, toolerr.CodeRateLimited, refusal(t, rig.get(t, "ord-9")), "retryable failures are retrygate's")
	}
	set(func() (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "no such order"}}}, nil
	})
	for range 3 {
		assert.True(t, rig.get(t, "ord-9").IsError, "an error result of unknown code is not counted")
	}
	set(func() (*mcp.CallToolResult, error) { return nil, toolerr.Default().New(toolerr.CodeNotFound, "") })
	rig.get(t, "ord-9")
	set(func() (*mcp.CallToolResult, error) {
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "order ord-9"}}}, nil
	})
	assert.False(t, rig.get(t, "ord-9").IsError)
	set(func() (*mcp.CallToolResult, error) { return nil, toolerr.Default().New(toolerr.CodeNotFound, "") })
	assert.Equal(t, toolerr.CodeNotFound, refusal(t, rig.get(t, "ord-9")))
	assert.Equal(t, toolerr.CodeNotFound, refusal(t, rig.get(t, "ord-9")), "the success cleared the run: one failure since")
	assert.Equal(t, toolerr.CodeRepeatedFailure, refusal(t, rig.get(t, "ord-9")))
	assert.EqualValues(t, 11, rig.runs.Load())
}

func TestMCPThrashGuardWindowAndThreshold(t *testing.T) {
	now := time.Date(2026, 11, 27, 12, 0, 0, 0, time.UTC)
	var clock atomic.Pointer[time.Time]
	clock.Store(&now)
	store := idempotency.NewMemoryStore(idempotency.WithClock(func() time.Time { return *clock.Load() }))
	rig := newThrashRig(t, guardOver(store, idempotency.WithThrashAfter(1), idempotency.WithThrashWindow(time.Minute)))
	rig.outcome = func(string) (*mcp.CallToolResult, error) {
		return nil, toolerr.Default().New(toolerr.CodePermissionDenied, "")
	}
	assert.Equal(t, toolerr.CodePermissionDenied, refusal(t, rig.get(t, "ord-9")))
	assert.Equal(t, toolerr.CodeRepeatedFailure, refusal(t, rig.get(t, "ord-9")), "refused after one failure")
	later := now.Add(time.Minute)
	clock.Store(&later)
	assert.Equal(t, toolerr.CodePermissionDenied, refusal(t, rig.get(t, "ord-9")), "the window passed")
	assert.EqualValues(t, 2, rig.runs.Load())
}

func TestMCPThrashGuardAnonymousUnguarded(t *testing.T) {
	rig := newThrashRig(t, mcptool.WithThrashGuard(nil))
	rig.outcome = func(string) (*mcp.CallToolResult, error) { return nil, toolerr.Default().New(toolerr.CodeNotFound, "") }
	for range 4 {
		assert.Equal(t, toolerr.CodeNotFound, refusal(t, rig.get(t, "ord-9")))
	}
	assert.EqualValues(t, 4, rig.runs.Load(), "a stdio client without SharedAnonymousScope is not guarded")
}
