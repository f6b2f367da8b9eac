package mcptool_test

import (
	"context"
	"fmt"
	"log/slog"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/middleware/mcptool"
)

// A model calls get_order with an id that does not exist three times:
// the third call is refused without running, and its problem names the
// code that kept failing.
func ExampleWithThrashGuard() {
	runs := 0
	getOrder := func(_ context.Context, _ *mcp.CallToolRequest, in map[string]any) (*mcp.CallToolResult, any, error) {
		runs++
		return nil, nil, toolerr.Default().New(toolerr.CodeNotFound, fmt.Sprintf("No order %v.", in["id"]))
	}
	quiet := mcptool.WithLogger(slog.New(slog.DiscardHandler))
	server := mcp.NewServer(&mcp.Implementation{Name: "orders", Version: "v1.0.0"}, nil)
	server.AddReceivingMiddleware(mcptool.Middleware(quiet))
	tool := &mcp.Tool{Name: "get_order", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}
	counter := idempotency.NewMemoryStore() // one replica; redisstore.New(client) for several
	// Over stdio one client is every caller: SharedAnonymousScope.
	mcptool.AddTool(server, tool, getOrder, quiet, mcptool.WithThrashGuard(counter, idempotency.SharedAnonymousScope()))

	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, _ := server.Connect(ctx, st, nil)
	defer ss.Close()
	cs, _ := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "v1.0.0"}, nil).Connect(ctx, ct, nil)
	defer cs.Close()

	for range 3 {
		res, _ := cs.CallTool(ctx, &mcp.CallToolParams{Name: "get_order", Arguments: map[string]any{"id": "ord-9"}})
		p := res.Meta[mcptool.MetaProblem].(map[string]any)
		details, _ := p["details"].(map[string]any)
		fmt.Println(p["code"], details["repeated_code"])
	}
	fmt.Println("runs:", runs)
	// Output:
	// NOT_FOUND <nil>
	// NOT_FOUND <nil>
	// REPEATED_FAILURE NOT_FOUND
	// runs: 2
}
