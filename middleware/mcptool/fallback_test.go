package mcptool_test

import (
	"context"
	"errors"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/mcptool"
	"github.com/toolerr/toolerr/toolresult"
)

// chargeFallbacks: a mutating backup and a read-only status check, both
// covering auth, transient and upstream failures.
var chargeFallbacks = []toolerr.Fallback{
	{Tool: "charge_backup", On: []toolerr.Category{toolerr.CategoryAuth, toolerr.CategoryTransient, toolerr.CategoryUpstream}, Mutates: true},
	{Tool: "charge_status", On: []toolerr.Category{toolerr.CategoryAuth, toolerr.CategoryTransient, toolerr.CategoryUpstream}},
}

type codeArgs struct {
	Code string `json:"code"`
}

// offered calls the tool name with code and returns the fallbacks its
// result offers, checking that the problem object and the text agree and
// that the hint names each one offered and no other.
func offered(t *testing.T, cs *mcp.ClientSession, name, code string) []string {
	t.Helper()
	res := call(t, cs, name, map[string]any{"code": code})
	require.True(t, res.IsError)
	p := problem(t, res)
	var fromProblem []string
	if acts, ok := p["actions"].([]any); ok {
		for _, a := range acts {
			if tool, ok := strings.CutPrefix(a.(string), toolerr.ActionUseFallbackPrefix); ok {
				fromProblem = append(fromProblem, tool)
			}
		}
	}
	obs, ok := toolresult.ParseObservation(strings.Join(text(t, res), "\n"))
	require.True(t, ok)
	assert.Equal(t, fromProblem, toolerr.FallbackTools(obs), "the text offers what the problem does")
	hint, _ := p["hint"].(string)
	for _, fb := range chargeFallbacks {
		assert.Equal(t, strings.Contains(strings.Join(fromProblem, " "), fb.Tool), strings.Contains(hint, fb.Tool), "hint %q", hint)
	}
	return fromProblem
}

func TestAddToolWithFallbacks(t *testing.T) {
	s := newServer()
	h := func(_ context.Context, _ *mcp.CallToolRequest, in codeArgs) (*mcp.CallToolResult, any, error) {
		return nil, nil, toolerr.Default().New(in.Code, "")
	}
	reg := toolerr.NewRegistry(toolerr.Default())
	mcptool.AddTool(s, &mcp.Tool{Name: "charge"}, h, mcptool.WithFallbacks(chargeFallbacks...), mcptool.WithRegistry(reg))
	mcptool.AddTool(s, &mcp.Tool{Name: "charge_keyed", Annotations: &mcp.ToolAnnotations{IdempotentHint: true}}, h,
		mcptool.WithFallbacks(chargeFallbacks...))
	mcptool.AddTool(s, &mcp.Tool{Name: "plain"}, h)
	cs := connect(t, s)

	both := []string{"charge_backup", "charge_status"}
	assert.Equal(t, both, offered(t, cs, "charge", toolerr.CodeUpstreamUnavailable))
	assert.Equal(t, []string{"charge_status"}, offered(t, cs, "charge", toolerr.CodeUnauthenticated), "auth: no mutating fallback")
	assert.Equal(t, []string{"charge_status"}, offered(t, cs, "charge", toolerr.CodeUpstreamTimeout), "a write that may have run")
	assert.Equal(t, both, offered(t, cs, "charge_keyed", toolerr.CodeUpstreamTimeout), "an idempotent tool runs once")
	assert.Equal(t, []string{"charge_status"}, offered(t, cs, "charge_keyed", toolerr.CodeUnauthenticated))
	assert.Nil(t, offered(t, cs, "charge", toolerr.CodeValidationFailed))
	assert.Nil(t, offered(t, cs, "plain", toolerr.CodeUpstreamUnavailable))
	assert.Equal(t, chargeFallbacks, reg.Fallbacks("charge"), "declared in the service's registry, for its exports")
}

func TestWrapWithFallbacksReadsTheGoError(t *testing.T) {
	s := newServer()
	h := mcptool.Wrap("charge", func(_ context.Context, _ *mcp.CallToolRequest, in codeArgs) (*mcp.CallToolResult, any, error) {
		return nil, nil, errors.Join(errors.New("charging"), toolerr.Default().New(in.Code, ""))
	}, mcptool.WithFallbacks(chargeFallbacks...))
	mcp.AddTool(s, &mcp.Tool{Name: "charge"}, h)
	cs := connect(t, s)
	res := call(t, cs, "charge", map[string]any{"code": toolerr.CodeUpstreamUnavailable})
	// A Go orchestrator reads the fallbacks of the result in one call.
	r := toolresult.Result{IsError: res.IsError}
	obs, ok := toolresult.ParseObservation(text(t, res)[0])
	require.True(t, ok)
	r.Err = obs
	assert.Equal(t, []string{"charge_backup", "charge_status"}, r.FallbackTools())
}

func TestWithFallbacksRejectedIsLogged(t *testing.T) {
	logger, logs := newLogger()
	s := newServer()
	h := func(_ context.Context, _ *mcp.CallToolRequest, in codeArgs) (*mcp.CallToolResult, any, error) {
		return nil, nil, toolerr.Default().New(in.Code, "")
	}
	mcptool.AddTool(s, &mcp.Tool{Name: "charge"}, h, mcptool.WithLogger(logger),
		mcptool.WithFallbacks(toolerr.Fallback{Tool: "charge", On: []toolerr.Category{toolerr.CategoryUpstream}}))
	assert.Contains(t, logs.String(), "its own fallback")
	cs := connect(t, s)
	assert.Nil(t, offered(t, cs, "charge", toolerr.CodeUpstreamUnavailable))
}
