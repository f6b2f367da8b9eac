package toolerrmcpgo_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/toolerr/toolerr/middleware/mcptest"
	"github.com/toolerr/toolerr/middleware/toolerrmcpgo"
)

// TestConformance runs the conformance suite of toolerr's MCP adapters
// against toolerrmcpgo and mark3labs/mcp-go.
func TestConformance(t *testing.T) {
	mcptest.Run(t, mcptest.Adapter{Name: "mcp-go", NewHandler: mcpgoHandler})
}

// mcpgoHandler is toolerrmcpgo's adapter for the suite: an mcp-go server
// with toolerrmcpgo installed right after it is made and every tool added
// with s.AddTool, served by mcp-go's streamable HTTP server (stateful
// with validated session ids, or stateless).
//
// A tool is an mcp.Tool literal (mcp.NewToolWithRawSchema), not
// mcp.NewTool: its raw input and output schemas are declared as they are,
// and a hint the suite leaves nil stays undeclared, where mcp.NewTool
// would fill in every hint with MCP's defaults.
func mcpgoHandler(t testing.TB, tools []mcptest.Tool, cfg mcptest.ServerConfig) http.Handler {
	t.Helper()
	var opts []server.ServerOption
	if cfg.LibraryValidation {
		opts = append(opts, server.WithInputSchemaValidation())
	}
	s := server.NewMCPServer("conformance", "0.0.1", opts...)
	toolerrmcpgo.Install(s, cfg.Options...)
	for _, tool := range tools {
		def := mcp.NewToolWithRawSchema(tool.Name, tool.Description, tool.InputSchema)
		def.RawOutputSchema = tool.OutputSchema
		def.Annotations = mcp.ToolAnnotation{
			ReadOnlyHint:    tool.Annotations.ReadOnly,
			DestructiveHint: tool.Annotations.Destructive,
			IdempotentHint:  tool.Annotations.Idempotent,
		}
		s.AddTool(def, mcpgoToolHandler(tool))
	}
	if cfg.Stateless {
		return server.NewStreamableHTTPServer(s, server.WithStateLess(true))
	}
	return server.NewStreamableHTTPServer(s, server.WithStateful(true),
		server.WithStreamableHTTPProtocolVersions(sessionVersions()...))
}

// sessionVersions are the protocol versions mcp-go serves with sessions:
// those before 2026-07-28, which removed them (mcp-go ignores
// Mcp-Session-Id for a client that speaks it).
func sessionVersions() []string {
	var out []string
	for _, v := range mcp.ValidProtocolVersions {
		if !mcp.IsModernProtocol(v) {
			out = append(out, v)
		}
	}
	return out
}

// mcpgoToolHandler runs tool's handler with the call's arguments as the
// client sent them: its output as structuredContent and its JSON as text
// when the tool has an outputSchema, the JSON as text alone when not.
func mcpgoToolHandler(tool mcptest.Tool) server.ToolHandlerFunc {
	return func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		args := req.Params.RawArguments
		if len(args) == 0 {
			args = json.RawMessage(`{}`)
		}
		out, err := tool.Handler(ctx, args)
		if err != nil {
			return nil, err
		}
		text, err := json.Marshal(out)
		if err != nil {
			return nil, err
		}
		if tool.OutputSchema != nil {
			return mcp.NewToolResultStructured(out, string(text)), nil
		}
		return mcp.NewToolResultText(string(text)), nil
	}
}
