package mcptool_test

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/middleware/mcptool"
)

// An agent retries create_label with the same key in _meta: it gets the
// first label back, marked replayed, and the label is paid for once. The
// identical call without a key moments later is refused as a duplicate.
func ExampleWithIdempotency() {
	labels := 0
	createLabel := func(context.Context, *mcp.CallToolRequest, map[string]any) (*mcp.CallToolResult, any, error) {
		labels++
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: fmt.Sprintf("label lbl-%d", labels)}}}, nil, nil
	}
	quiet := mcptool.WithLogger(slog.New(slog.DiscardHandler))
	// Over stdio one client is every caller: SharedAnonymousScope. Over
	// HTTP, keys are scoped by the caller's credentials or session.
	once := mcptool.WithIdempotency(idempotency.NewMemoryStore(), idempotency.SharedAnonymousScope())
	additive := false // it creates, it does not destroy: a mutating tool
	server := mcp.NewServer(&mcp.Implementation{Name: "harbor", Version: "v1.0.0"}, nil)
	server.AddReceivingMiddleware(mcptool.Middleware(quiet))
	mcptool.AddTool(server, &mcp.Tool{Name: "create_label", Annotations: &mcp.ToolAnnotations{DestructiveHint: &additive}}, createLabel, quiet, once)

	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, _ := server.Connect(ctx, st, nil)
	defer ss.Close()
	cs, _ := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "v1.0.0"}, nil).Connect(ctx, ct, nil)
	defer cs.Close()

	for _, key := range []string{"9f1c7e2a-label-oslo", "9f1c7e2a-label-oslo", "", ""} {
		params := &mcp.CallToolParams{Name: "create_label", Arguments: map[string]any{"to": "Oslo"}}
		if key != "" {
			params.Meta = mcp.Meta{mcptool.MetaIdempotencyKey: key}
		}
		res, _ := cs.CallTool(ctx, params)
		if res.IsError {
			fmt.Println(res.Meta[mcptool.MetaProblem].(map[string]any)["code"])
			continue
		}
		fmt.Println(res.Content[0].(*mcp.TextContent).Text, "replayed:", res.Meta[mcptool.MetaReplayed] == true)
	}
	fmt.Println("labels paid for:", labels)
	// Output:
	// label lbl-1 replayed: false
	// label lbl-1 replayed: true
	// label lbl-2 replayed: false
	// DUPLICATE_ACTION
	// labels paid for: 2
}
