package toolerrmcpgo_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync/atomic"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/toolerrmcpgo"
	"github.com/toolerr/toolerr/translate"
)

// What the bug report's handlers leak, and fragments none may be seen
// outside the log's cause.
const (
	dbError  = "pq: password authentication failed for user svc at db.prod.internal:5432 password=hunter2hunter2"
	dbSecret = "hunter2hunter2"
	dbHost   = "db.prod.internal"
)

// refundOut is the typed output of refund_typed.
type refundOut struct {
	RefundID string `json:"refund_id"`
}

// orders is the test service of the bug report: its tools and what ran.
type orders struct {
	ran atomic.Int32 // runs of the handlers that must not run on invalid arguments
}

// placement says where server.WithRecovery goes relative to Install.
type placement int

const (
	noRecovery     placement = iota
	recoveryOuter            // server.WithRecovery() among NewMCPServer's options, before Install
	recoveryInner            // server.WithRecovery() applied after Install, so it runs inside
	installSkipped           // mcp-go alone, for comparison
)

// newOrders builds the service's mcp-go server with toolerr installed
// (opts), WithRecovery placed as p and extra server options.
func (o *orders) server(p placement, opts []toolerrmcpgo.Option, extra ...server.ServerOption) *server.MCPServer {
	if p == recoveryOuter {
		extra = append(extra, server.WithRecovery())
	}
	s := server.NewMCPServer("orders", "1.0.0", extra...)
	if p != installSkipped {
		toolerrmcpgo.Install(s, opts...)
	}
	if p == recoveryInner {
		server.WithRecovery()(s)
	}
	o.addTools(s)
	return s
}

// addTools adds the tools of the bug report to s.
func (o *orders) addTools(s *server.MCPServer) {
	s.AddTool(mcp.NewTool("db_down", mcp.WithDescription("Fails with the driver's error.")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, errors.New(dbError)
		})
	s.AddTool(mcp.NewTool("refund_order", mcp.WithString("order_id", mcp.Required())),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, fmt.Errorf("refund: %w", toolerr.Default().New(toolerr.CodeConflict, "order ord_conflict was already refunded").
				WithField("/order_id").WithHint("Do not refund ord_conflict again; look the refund up instead."))
		})
	s.AddTool(mcp.NewTool("refund_typed", mcp.WithString("order_id", mcp.Required()), mcp.WithOutputSchema[refundOut]()),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, toolerr.Default().New(toolerr.CodeConflict, "order ord_conflict was already refunded").WithField("/order_id")
		})
	s.AddTool(mcp.NewTool("nil_map", mcp.WithDescription("Writes to a nil map.")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var m map[string]string
			//lint:ignore SA5000 the panic of the bug report is the point
			m[dbSecret] = dbHost
			return nil, nil
		})
	s.AddTool(mcp.NewTool("panic_secret"),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			panic("connect " + dbError)
		})
	s.AddTool(mcp.NewTool("fake_recovered"),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, fmt.Errorf("panic recovered in fake_recovered tool handler: %w", context.DeadlineExceeded)
		})
	s.AddTool(mcp.NewTool("label_timeout", mcp.WithDestructiveHintAnnotation(false), mcp.WithIdempotentHintAnnotation(false)),
		func(ctx context.Context, _ mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			toolerr.RecordIntent(ctx, "create_label", "L-77", "submitted", "GET /labels/L-77")
			return nil, fmt.Errorf("label service: %w", context.DeadlineExceeded)
		})
	s.AddTool(mcp.NewTool("quote_timeout", mcp.WithReadOnlyHintAnnotation(true)),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, fmt.Errorf("quote service: %w", context.DeadlineExceeded)
		})
	s.AddTool(mcp.NewTool("charge", mcp.WithNumber("amount", mcp.Required(), mcp.Min(1), mcp.Max(500)),
		mcp.WithString("currency", mcp.Required(), mcp.Enum("eur", "usd"))),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			o.ran.Add(1)
			return mcp.NewToolResultText("charged"), nil
		})
	s.AddTool(mcp.NewTool("get_order", mcp.WithString("order_id", mcp.Description("The order's id."))),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			id, err := req.RequireString("order_id")
			if err != nil {
				return nil, err
			}
			return mcp.NewToolResultText("order " + id), nil
		})
	s.AddTool(mcp.NewTool("bind_order", mcp.WithString("order_id")),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var in struct {
				Qty int `json:"qty"`
			}
			if err := req.BindArguments(&in); err != nil {
				return nil, fmt.Errorf("bind: %w", err)
			}
			return mcp.NewToolResultText("ok"), nil
		})
	s.AddTool(mcp.NewTool("decode_upstream", mcp.WithNumber("qty")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			var stock struct {
				Qty int `json:"qty"`
			}
			// The warehouse's answer, not the arguments, has the wrong type.
			if err := json.Unmarshal([]byte(`{"qty":"many"}`), &stock); err != nil {
				return nil, fmt.Errorf("warehouse: %w", err)
			}
			return mcp.NewToolResultText("ok"), nil
		})
	s.AddTool(mcp.NewTool("mimic_validation", mcp.WithString("order_id")),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultError("input schema validation failed: /order_id: the handler's own words"), nil
		})
	s.AddTool(mcp.NewTool("out_of_stock"),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultError("out of stock at " + dbHost), nil
		})
	s.AddTool(mcp.NewTool("vendor_402"),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, translate.Response(stripeDecline())
		})
	s.AddTool(mcp.NewTool("no_result"),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) { return nil, nil })
	s.AddTool(mcp.NewTool("needs_login"),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return nil, mcp.URLElicitationRequiredError{Elicitations: []mcp.ElicitationParams{{
				Mode: mcp.ElicitationModeURL, Message: "Sign in to the billing portal.",
				URL: "https://billing.example.com/login", ElicitationID: "el-1"}}}
		})
	s.AddTool(mcp.NewTool("ok"),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			return mcp.NewToolResultText("fine"), nil
		})
}

// stripeDecline is Stripe's card_declined 402, as a vendor client gets it.
func stripeDecline() *http.Response {
	body := `{"error":{"type":"card_error","code":"card_declined","decline_code":"insufficient_funds",` +
		`"message":"Your card was declined.","doc_url":"https://stripe.com/docs/error-codes/card-declined"}}`
	req, _ := http.NewRequest(http.MethodPost, "https://api.stripe.com/v1/charges", nil)
	return &http.Response{StatusCode: http.StatusPaymentRequired, Request: req, Body: io.NopCloser(strings.NewReader(body)),
		Header: http.Header{"Content-Type": {"application/json"}, "Request-Id": {"req_9Xy7Zq2LmN"}}}
}

// quiet is a logger that discards.
var quiet = slog.New(slog.DiscardHandler)
