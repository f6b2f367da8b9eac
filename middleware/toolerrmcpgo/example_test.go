package toolerrmcpgo_test

import (
	"context"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrmcpgo"
)

// A refund that conflicts with an earlier one reaches the agent, over
// streamable HTTP, as a tool result whose text says what to do, not as
// the Go error's text in a JSON-RPC error.
func Example() {
	refund := func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		id, err := req.RequireString("order_id")
		if err != nil {
			return nil, err
		}
		return nil, toolerr.Default().New(toolerr.CodeConflict, "order "+id+" was already refunded").
			WithField("/order_id").
			WithHint("Do not refund " + id + " again; look the refund up instead.")
	}

	s := server.NewMCPServer("orders", "1.0.0", server.WithRecovery())
	toolerrmcpgo.Install(s)
	s.AddTool(mcp.NewTool("refund_order", mcp.WithString("order_id", mcp.Required())), refund)
	mux := http.NewServeMux()
	mux.Handle("/mcp", middleware.New()(server.NewStreamableHTTPServer(s)))

	srv := httptest.NewServer(mux)
	defer srv.Close()
	ctx := context.Background()
	agent, _ := client.NewStreamableHttpClient(srv.URL + "/mcp")
	defer agent.Close()
	_ = agent.Start(ctx)
	if _, err := agent.Initialize(ctx, mcp.InitializeRequest{}); err != nil {
		fmt.Println("initialize:", err)
		return
	}
	call := mcp.CallToolRequest{}
	call.Params.Name, call.Params.Arguments = "refund_order", map[string]any{"order_id": "ord_conflict"}
	res, err := agent.CallTool(ctx, call)
	if err != nil {
		fmt.Println("protocol error:", err)
		return
	}
	p := res.Meta.AdditionalFields[toolerrmcpgo.MetaProblem].(map[string]any)
	fmt.Println(res.IsError, p["code"], p["field"])
	line := mcp.GetTextFromContent(res.Content[0])
	fmt.Println(strings.Replace(line, p["request_id"].(string), "<the X-Request-Id of the call's POST>", 1))
	// Output:
	// true CONFLICT /order_id
	// CONFLICT (conflict): order ord_conflict was already refunded
	// retryable: false
	// field: /order_id
	// actions: read_state_first
	// hint: Do not refund ord_conflict again; look the refund up instead.
	// request_id: <the X-Request-Id of the call's POST>
}

// With mcp-go's input schema validation on, arguments that break a tool's
// schema get every violation, its repair or what to ask the user, not mcp-go's
// "input schema validation failed: /amount: &{Got:900/1 Want:500/1}".
func ExampleInstall() {
	logger := slog.New(slog.DiscardHandler)
	s := server.NewMCPServer("orders", "1.0.0", server.WithRecovery(), server.WithInputSchemaValidation())
	toolerrmcpgo.Install(s, toolerrmcpgo.WithLogger(logger))
	s.AddTool(mcp.NewTool("charge",
		mcp.WithNumber("amount", mcp.Required(), mcp.Min(1), mcp.Max(500)),
		mcp.WithString("currency", mcp.Required(), mcp.Enum("eur", "usd"))),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("charged"), nil
		})

	ctx := context.Background()
	agent, _ := client.NewInProcessClient(s)
	defer agent.Close()
	_ = agent.Start(ctx)
	if _, err := agent.Initialize(ctx, mcp.InitializeRequest{}); err != nil {
		fmt.Println("initialize:", err)
		return
	}
	call := mcp.CallToolRequest{}
	call.Params.Name, call.Params.Arguments = "charge", map[string]any{"amount": 900, "currency": "EUR"}
	res, err := agent.CallTool(ctx, call)
	if err != nil {
		fmt.Println("protocol error:", err)
		return
	}
	p := res.Meta.AdditionalFields[toolerrmcpgo.MetaProblem].(map[string]any)
	line := mcp.GetTextFromContent(res.Content[0])
	fmt.Println(strings.Replace(line, p["request_id"].(string), "<a new request id>", 1))
	// Output:
	// VALIDATION_FAILED (validation): 2 arguments are invalid.
	// retryable: false
	// field: /currency
	// violation: /currency must be one of allowed_values, allowed_values: ["eur","usd"], suggested_value: "eur"
	// violation: /amount must be between 1 and 500, allowed_values: {"maximum":500,"minimum":1}
	// hint: Set currency to "eur"; ask the user which amount to use, between 1 and 500. Then call again.
	// request_id: <a new request id>
}
