package mcptool_test

import (
	"context"
	"fmt"
	"log/slog"
	"strings"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/mcptool"
)

// A tool refuses a limit that is too large; the agent gets the error as a
// tool result it can branch on, not as the Go error's text.
func ExampleAddTool() {
	type args struct {
		Limit int `json:"limit"`
	}
	type shipments struct {
		IDs []string `json:"ids"`
	}
	list := func(ctx context.Context, _ *mcp.CallToolRequest, in args) (*mcp.CallToolResult, shipments, error) {
		if in.Limit > 100 {
			return nil, shipments{}, toolerr.Default().New(toolerr.CodeValidationFailed, "limit must be at most 100").
				WithField("limit").
				WithSuggestedValue(100).
				WithHint("Reduce limit to 100 or less.")
		}
		return nil, shipments{IDs: []string{"S-1"}}, nil
	}

	quiet := mcptool.WithLogger(slog.New(slog.DiscardHandler))
	server := mcp.NewServer(&mcp.Implementation{Name: "harbor", Version: "v1.0.0"}, nil)
	server.AddReceivingMiddleware(mcptool.Middleware(quiet))
	mcptool.AddTool(server, &mcp.Tool{Name: "list_shipments", Description: "Lists shipments."}, list, quiet)

	ctx := context.Background()
	st, ct := mcp.NewInMemoryTransports()
	ss, _ := server.Connect(ctx, st, nil)
	defer ss.Close()
	cs, _ := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "v1.0.0"}, nil).Connect(ctx, ct, nil)
	defer cs.Close()

	res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "list_shipments", Arguments: map[string]any{"limit": 500}})
	if err != nil {
		fmt.Println("protocol error:", err)
		return
	}
	p := res.Meta[mcptool.MetaProblem].(map[string]any)
	fmt.Println(res.IsError)
	fmt.Println(p["code"], p["field"], p["suggested_value"], p["tool"])
	line := res.Content[0].(*mcp.TextContent).Text
	fmt.Println(strings.Replace(line, p["request_id"].(string), "<the call's request id>", 1))
	// Output:
	// true
	// VALIDATION_FAILED limit 100 list_shipments
	// VALIDATION_FAILED (validation): limit must be at most 100
	// retryable: false
	// field: limit
	// suggested_value: 100
	// hint: Reduce limit to 100 or less.
	// request_id: <the call's request id>
}
