package toolerrmcpgo_test

import (
	"context"
	"fmt"
	"net/http/httptest"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrmcpgo"
)

// A retried refund runs once: the retry carries the same idempotency key
// in _meta and gets the first call's result back, marked replayed. The
// tool says it modifies (destructiveHint false: it only adds a refund), so
// a keyless repeat of the same call would be DUPLICATE_ACTION.
func ExampleWithIdempotency() {
	var refunds atomic.Int32
	refund := func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		n := refunds.Add(1)
		return mcp.NewToolResultText(fmt.Sprintf("refund re_%d for %s", n, req.GetString("order_id", ""))), nil
	}

	s := server.NewMCPServer("orders", "1.0.0")
	toolerrmcpgo.Install(s, toolerrmcpgo.WithIdempotency(nil))
	s.AddTool(mcp.NewTool("refund_order", mcp.WithString("order_id", mcp.Required()),
		mcp.WithDestructiveHintAnnotation(false)), refund)
	srv := httptest.NewServer(middleware.New()(server.NewStreamableHTTPServer(s)))
	defer srv.Close()

	ctx := context.Background()
	// Keys are scoped by the caller: here its Authorization header.
	agent, _ := client.NewStreamableHttpClient(srv.URL,
		transport.WithHTTPHeaders(map[string]string{"Authorization": "Bearer agent-1"}))
	defer agent.Close()
	_ = agent.Start(ctx)
	if _, err := agent.Initialize(ctx, mcp.InitializeRequest{}); err != nil {
		fmt.Println("initialize:", err)
		return
	}
	call := mcp.CallToolRequest{}
	call.Params.Name, call.Params.Arguments = "refund_order", map[string]any{"order_id": "ord_1"}
	call.Params.Meta = &mcp.Meta{AdditionalFields: map[string]any{toolerrmcpgo.MetaIdempotencyKey: "refund-ord_1-7f3a"}}
	for range 2 { // the agent retries, say after a timeout
		res, err := agent.CallTool(ctx, call)
		if err != nil {
			fmt.Println("protocol error:", err)
			return
		}
		replayed := res.Meta != nil && res.Meta.AdditionalFields[toolerrmcpgo.MetaReplayed] == true
		fmt.Println(mcp.GetTextFromContent(res.Content[0]), "replayed:", replayed)
	}
	fmt.Println("refunds made:", refunds.Load())
	// Output:
	// refund re_1 for ord_1 replayed: false
	// refund re_1 for ord_1 replayed: true
	// refunds made: 1
}
