package mcptool_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolerr/toolerr/middleware/mcptest"
	"github.com/toolerr/toolerr/middleware/mcptool"
)

// TestConformance runs the conformance suite of toolerr's MCP adapters
// against mcptool and the official Go SDK.
func TestConformance(t *testing.T) {
	mcptest.Run(t, mcptest.Adapter{Name: "go-sdk", NewHandler: goSDKHandler})
}

// goSDKHandler is mcptool's adapter for the suite: a go-sdk server with
// mcptool.Middleware installed and every tool registered with
// mcptool.AddTool, served by the SDK's streamable HTTP handler.
//
// A tool's raw input schema is declared as it is with In =
// json.RawMessage: given a schema, the SDK validates the arguments against
// it and unmarshals them into In without inferring anything from the type.
// Out is any: the SDK then puts a success's output in structuredContent
// only when the tool declares an outputSchema, which is the only case
// where the handler returns it as Out; otherwise the handler returns the
// output's JSON as text content itself. AddTool reads a tool's
// idempotentHint from its annotations.
func goSDKHandler(t testing.TB, tools []mcptest.Tool, cfg mcptest.ServerConfig) http.Handler {
	t.Helper()
	server := mcp.NewServer(&mcp.Implementation{Name: "conformance", Version: "v0.0.1"}, nil)
	server.AddReceivingMiddleware(mcptool.Middleware(cfg.Options...))
	for _, tool := range tools {
		def := &mcp.Tool{Name: tool.Name, Description: tool.Description, InputSchema: tool.InputSchema,
			Annotations: goSDKAnnotations(tool.Annotations)}
		if tool.OutputSchema != nil {
			def.OutputSchema = tool.OutputSchema
		}
		mcptool.AddTool(server, def, goSDKToolHandler(tool), cfg.Options...)
	}
	return mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
		&mcp.StreamableHTTPOptions{Stateless: cfg.Stateless})
}

// goSDKToolHandler runs tool's handler as a typed go-sdk handler.
func goSDKToolHandler(tool mcptest.Tool) mcp.ToolHandlerFor[json.RawMessage, any] {
	return func(ctx context.Context, _ *mcp.CallToolRequest, args json.RawMessage) (*mcp.CallToolResult, any, error) {
		out, err := tool.Handler(ctx, args)
		if err != nil {
			return nil, nil, err
		}
		if tool.OutputSchema != nil {
			return nil, out, nil
		}
		text, err := json.Marshal(out)
		if err != nil {
			return nil, nil, err
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: string(text)}}}, nil, nil
	}
}

// goSDKAnnotations returns the go-sdk's annotations of a, nil when a
// declares none. The go-sdk's readOnlyHint and idempotentHint are plain
// bools, false by default as MCP's defaults are.
func goSDKAnnotations(a mcptest.Annotations) *mcp.ToolAnnotations {
	if a.ReadOnly == nil && a.Destructive == nil && a.Idempotent == nil {
		return nil
	}
	out := &mcp.ToolAnnotations{DestructiveHint: a.Destructive}
	if a.ReadOnly != nil {
		out.ReadOnlyHint = *a.ReadOnly
	}
	if a.Idempotent != nil {
		out.IdempotentHint = *a.Idempotent
	}
	return out
}
