package toolerrmcpgo_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/toolerrmcpgo"
	"github.com/toolerr/toolerr/toolresult"
)

// chargeFallbacks: a mutating backup and a read-only status check, both
// covering auth, transient and upstream failures.
var chargeFallbacks = []toolerr.Fallback{
	{Tool: "charge_backup", On: []toolerr.Category{toolerr.CategoryAuth, toolerr.CategoryTransient, toolerr.CategoryUpstream}, Mutates: true},
	{Tool: "charge_status", On: []toolerr.Category{toolerr.CategoryAuth, toolerr.CategoryTransient, toolerr.CategoryUpstream}},
}

func TestInstallWithFallbacks(t *testing.T) {
	reg := toolerr.NewRegistry(toolerr.Default())
	s := server.NewMCPServer("billing", "1.0.0")
	toolerrmcpgo.Install(s, toolerrmcpgo.WithRegistry(reg),
		toolerrmcpgo.WithFallbacks("charge", chargeFallbacks...),
		toolerrmcpgo.WithFallbacks("charge_keyed", chargeFallbacks...))
	fail := func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		return nil, toolerr.Default().New(req.GetString("code", ""), "")
	}
	s.AddTool(mcp.NewTool("charge", mcp.WithString("code")), fail)
	s.AddTool(mcp.NewTool("charge_keyed", mcp.WithString("code"), mcp.WithIdempotentHintAnnotation(true)), fail)
	s.AddTool(mcp.NewTool("plain", mcp.WithString("code")), fail)

	ctx := context.Background()
	agent, err := client.NewInProcessClient(s)
	require.NoError(t, err)
	t.Cleanup(func() { _ = agent.Close() })
	require.NoError(t, agent.Start(ctx))
	_, err = agent.Initialize(ctx, mcp.InitializeRequest{})
	require.NoError(t, err)

	offered := func(tool, code string) []string {
		t.Helper()
		call := mcp.CallToolRequest{}
		call.Params.Name, call.Params.Arguments = tool, map[string]any{"code": code}
		res, err := agent.CallTool(ctx, call)
		require.NoError(t, err)
		require.True(t, res.IsError)
		p := res.Meta.AdditionalFields[toolerrmcpgo.MetaProblem].(map[string]any)
		var fromProblem []string
		acts, _ := p["actions"].([]any)
		for _, a := range acts {
			if name, ok := strings.CutPrefix(a.(string), toolerr.ActionUseFallbackPrefix); ok {
				fromProblem = append(fromProblem, name)
			}
		}
		obs, ok := toolresult.ParseObservation(mcp.GetTextFromContent(res.Content[0]))
		require.True(t, ok)
		assert.Equal(t, fromProblem, toolerr.FallbackTools(obs), "the text offers what the problem does")
		hint, _ := p["hint"].(string)
		for _, fb := range chargeFallbacks {
			assert.Equal(t, strings.Contains(strings.Join(fromProblem, " "), fb.Tool), strings.Contains(hint, fb.Tool), "hint %q", hint)
		}
		return fromProblem
	}
	both := []string{"charge_backup", "charge_status"}
	assert.Equal(t, both, offered("charge", toolerr.CodeUpstreamUnavailable))
	assert.Equal(t, []string{"charge_status"}, offered("charge", toolerr.CodeUnauthenticated), "auth: no mutating fallback")
	assert.Equal(t, []string{"charge_status"}, offered("charge", toolerr.CodeUpstreamTimeout), "a write that may have run")
	assert.Equal(t, both, offered("charge_keyed", toolerr.CodeUpstreamTimeout), "an idempotent tool runs once")
	assert.Nil(t, offered("charge", toolerr.CodeValidationFailed))
	assert.Nil(t, offered("plain", toolerr.CodeUpstreamUnavailable))
	assert.Equal(t, chargeFallbacks, reg.Fallbacks("charge"))
}

func TestInstallWithFallbacksRejectedIsLogged(t *testing.T) {
	logger, logs := newLogger()
	s := server.NewMCPServer("billing", "1.0.0")
	toolerrmcpgo.Install(s, toolerrmcpgo.WithLogger(logger),
		toolerrmcpgo.WithFallbacks("charge", toolerr.Fallback{Tool: "charge_backup", On: []toolerr.Category{"flaky"}}))
	assert.Contains(t, logs.String(), "unknown category")
}
