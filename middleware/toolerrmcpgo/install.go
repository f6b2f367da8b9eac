package toolerrmcpgo

import (
	"github.com/mark3labs/mcp-go/server"

	"github.com/toolerr/toolerr/internal/mcpcore"
)

// adapter is toolerr installed on one mcp-go server. Safe for concurrent
// use once installed.
type adapter struct {
	core   *mcpcore.Core
	server *server.MCPServer
}

// Install makes the failures of every tool of s reach the agent as toolerr
// errors, in one line at server construction:
//
//	s := server.NewMCPServer("orders", "1.0.0", server.WithRecovery(), server.WithInputSchemaValidation())
//	toolerrmcpgo.Install(s, toolerrmcpgo.WithLogger(logger))
//
// It adds to s a tool handler middleware (s.Use) and hooks (s.GetHooks,
// or new hooks when s has none): a handler's error or panic becomes a
// failed tool result, mcp-go's answer to arguments its input schema
// validation rejected becomes VALIDATION_FAILED with every violation and
// its repair, with [WithUnknownToolResult] a call of a tool s does not
// have becomes TOOL_NOT_FOUND, and with [WithIdempotency] a retried call
// runs once per idempotency key (see the package doc). Options default
// as documented on each: the built-in registry, sanitize.New(),
// slog.Default(), tools that are not idempotent unless their annotations
// say so, the global OpenTelemetry providers, no idempotency.
//
// Call Install once per server, after server.NewMCPServer and before s
// serves: mcp-go reads its hooks without a lock. Middlewares added with
// s.Use after Install run inside the adapter's, so their errors and panics
// are completed too; those added before (server.WithToolHandlerMiddleware
// among NewMCPServer's options, s.Use before Install) run outside it, and
// an error one of them returns itself reaches the client as mcp-go sends
// it. server.WithRecovery may sit on either side. A later
// server.WithHooks would replace the adapter's hooks: add hooks with
// s.GetHooks().Add… instead.
func Install(s *server.MCPServer, opts ...Option) {
	if s == nil {
		return
	}
	a := &adapter{core: mcpcore.New(opts...), server: s}
	s.Use(a.middleware)
	a.installHooks() // hooks.go
	if a.core.UnknownToolResult {
		s.AddTool(unknownToolDef(), a.unknownToolHandler) // unknown.go
	}
}
