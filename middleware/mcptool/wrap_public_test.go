package mcptool_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/middleware/mcptool"
	"github.com/toolerr/toolerr/middleware/sanitize"
)

// These tests reach Wrap and its options only through their public form:
// a handler wrapped by mcptool.Wrap, registered with the SDK's own
// mcp.AddTool, called by the SDK's client over in-memory transports.

// dockAnswer is the typed output of the typed tool below.
type dockAnswer struct {
	Dock string `json:"dock"`
}

// wrappedCall registers h, wrapped by mcptool.Wrap under "track" with
// opts, on a fresh server and returns the client's result of one call.
func wrappedCall[Out any](t *testing.T, h mcp.ToolHandlerFor[trackArgs, Out], opts ...mcptool.Option) *mcp.CallToolResult {
	t.Helper()
	server := newServer()
	mcp.AddTool(server, &mcp.Tool{Name: "track"}, mcptool.Wrap("track", h, opts...))
	return call(t, connect(t, server), "track", map[string]any{})
}

// TestWrapPublic: a Go error, a panic and a toolerr error returned by a
// handler wrapped with Wrap reach the client as a toolerr result (problem
// object in _meta and structuredContent, observation as text) naming the
// tool; a success passes untouched; with a typed output the failure comes
// back as IsError with the observation line.
func TestWrapPublic(t *testing.T) {
	quietLogger, _ := newLogger()
	quiet := mcptool.WithLogger(quietLogger)

	res := wrappedCall(t, func(context.Context, *mcp.CallToolRequest, trackArgs) (*mcp.CallToolResult, any, error) {
		return nil, nil, errors.New("dial tcp 10.0.0.7:5432: connection reset by peer at db-7.prod.internal")
	}, quiet)
	require.True(t, res.IsError)
	p := problem(t, res)
	assert.Equal(t, "track", p["tool"])
	assert.NotEmpty(t, p["code"])
	assert.NotContains(t, fmt.Sprint(res.Content, p), "prod.internal", "the Go error's text never reaches the agent")
	assert.Contains(t, strings.Join(text(t, res), "\n"), p["code"].(string)+" (")

	res = wrappedCall(t, func(context.Context, *mcp.CallToolRequest, trackArgs) (*mcp.CallToolResult, any, error) {
		panic("nil map write in /srv/harbor/track.go:42")
	}, quiet)
	require.True(t, res.IsError)
	p = problem(t, res)
	assert.Equal(t, toolerr.CodeInternal, p["code"], "a panic is an internal error, not a crash of the session")
	assert.NotContains(t, fmt.Sprint(res.Content, p), "track.go")

	res = wrappedCall(t, func(context.Context, *mcp.CallToolRequest, trackArgs) (*mcp.CallToolResult, any, error) {
		return nil, nil, toolerr.Default().New(toolerr.CodeNotFound, "No shipment 77.")
	}, quiet)
	require.True(t, res.IsError)
	assert.Equal(t, toolerr.CodeNotFound, problem(t, res)["code"])

	ok := &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "shipment 77: at dock 4"}}}
	res = wrappedCall(t, func(context.Context, *mcp.CallToolRequest, trackArgs) (*mcp.CallToolResult, any, error) {
		return ok, nil, nil
	}, quiet)
	assert.False(t, res.IsError)
	assert.Equal(t, []string{"shipment 77: at dock 4"}, text(t, res))
	assert.Nil(t, res.Meta[mcptool.MetaProblem])

	res = wrappedCall(t, func(context.Context, *mcp.CallToolRequest, trackArgs) (*mcp.CallToolResult, dockAnswer, error) {
		return nil, dockAnswer{}, toolerr.Default().New(toolerr.CodeNotFound, "No shipment 77.")
	}, quiet)
	require.True(t, res.IsError)
	assert.Contains(t, strings.Join(text(t, res), "\n"), toolerr.CodeNotFound+" (not_found): No shipment 77.", "a typed tool's failure is the observation line")
}

// docsProblemType is the problem type a registry with docs base gives code.
func docsProblemType(base, code string) string { return base + code }

// TestWrapWithRegistryPublic: the errors Wrap builds itself (a panic's
// INTERNAL_ERROR, a Go error's classification) come from the registry of
// WithRegistry: here one whose docs base makes the problem type.
func TestWrapWithRegistryPublic(t *testing.T) {
	const base = "https://docs.harbor.example/errors/"
	reg := toolerr.NewRegistry(toolerr.Default(), toolerr.WithDocsBase(base))
	quietLogger, _ := newLogger()
	panics := func(context.Context, *mcp.CallToolRequest, trackArgs) (*mcp.CallToolResult, any, error) {
		panic("boom")
	}

	res := wrappedCall(t, panics, mcptool.WithRegistry(reg), mcptool.WithLogger(quietLogger))
	assert.Equal(t, docsProblemType(base, toolerr.CodeInternal), problem(t, res)["type"])

	res = wrappedCall(t, panics, mcptool.WithLogger(quietLogger))
	assert.NotEqual(t, docsProblemType(base, toolerr.CodeInternal), problem(t, res)["type"], "without the option, the built-in registry")
}

// TestWrapWithClassifierPublic: a Go error returned by the handler is
// classified by the classifier of WithClassifier: here one over a registry
// whose docs base makes the problem type of the timeout it finds.
func TestWrapWithClassifierPublic(t *testing.T) {
	const base = "https://docs.classifier.example/errors/"
	cl := classify.New(toolerr.NewRegistry(toolerr.Default(), toolerr.WithDocsBase(base)))
	quietLogger, _ := newLogger()
	timesOut := func(context.Context, *mcp.CallToolRequest, trackArgs) (*mcp.CallToolResult, any, error) {
		return nil, nil, fmt.Errorf("read carrier: %w", context.DeadlineExceeded)
	}

	res := wrappedCall(t, timesOut, mcptool.WithClassifier(cl), mcptool.WithLogger(quietLogger))
	p := problem(t, res)
	code, _ := p["code"].(string)
	assert.Contains(t, code, "TIMEOUT")
	assert.Equal(t, docsProblemType(base, code), p["type"])

	res = wrappedCall(t, timesOut, mcptool.WithLogger(quietLogger))
	p = problem(t, res)
	assert.Equal(t, code, p["code"])
	assert.NotEqual(t, docsProblemType(base, code), p["type"], "without the option, the default classifier")
}

// TestWrapWithSanitizerPublic: the sanitizer of WithSanitizer cleans what
// reaches the client: a service secret only it knows is redacted from the
// detail, where the default sanitizer, not knowing it, keeps it.
func TestWrapWithSanitizerPublic(t *testing.T) {
	const secret = "harbor-vault-passphrase-31337"
	quietLogger, _ := newLogger()
	leaks := func(context.Context, *mcp.CallToolRequest, trackArgs) (*mcp.CallToolResult, any, error) {
		return nil, nil, toolerr.Default().New(toolerr.CodeConflict, "Dock locked with "+secret+".")
	}

	res := wrappedCall(t, leaks, mcptool.WithSanitizer(sanitize.New(sanitize.WithSecrets(secret))), mcptool.WithLogger(quietLogger))
	p := problem(t, res)
	assert.Equal(t, toolerr.CodeConflict, p["code"])
	assert.NotContains(t, fmt.Sprint(p, res.Content), secret)

	res = wrappedCall(t, leaks, mcptool.WithLogger(quietLogger))
	assert.Contains(t, fmt.Sprint(problem(t, res)), secret, "the default sanitizer does not know the service's secret")
}
