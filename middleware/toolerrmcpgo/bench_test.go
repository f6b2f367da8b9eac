package toolerrmcpgo_test

import (
	"context"
	"encoding/json"
	"strconv"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/middleware/toolerrmcpgo"
)

// BenchmarkToolCall is the adapter's cost against bare mcp-go, in
// process: a raw JSON-RPC tools/call message through server.HandleMessage
// and the answer serialized, as a transport does, without HTTP's noise.
// Each case runs bare (mcp-go alone) and with toolerr installed:
//
//   - success: a handler that returns a text result;
//   - failure: a handler that returns a Go error (bare: a JSON-RPC error
//     with the error's text; toolerr: INTERNAL_ERROR as a tool result);
//   - invalid_arguments: WithInputSchemaValidation rejects the arguments
//     (bare: mcp-go's text; toolerr: argcheck's violations and repair).
//
// The logger discards and the OpenTelemetry providers are the global
// no-op ones, so the numbers are the adapter's own work.
func BenchmarkToolCall(b *testing.B) {
	cases := []struct {
		name, tool string
		args       map[string]any
	}{
		{"success", "ok", map[string]any{}},
		{"failure", "db_down", map[string]any{}},
		{"invalid_arguments", "charge", map[string]any{"amount": 900, "currency": "EUR"}},
	}
	for _, c := range cases {
		for _, v := range []struct {
			name string
			p    placement
		}{{"bare", installSkipped}, {"toolerr", noRecovery}} {
			b.Run(c.name+"/"+v.name, func(b *testing.B) {
				s := (&orders{}).server(v.p, []toolerrmcpgo.Option{toolerrmcpgo.WithLogger(quiet)}, server.WithInputSchemaValidation())
				msg := callMessage(c.tool, c.args)
				ctx := context.Background()
				b.ReportAllocs()
				for b.Loop() {
					if _, err := json.Marshal(s.HandleMessage(ctx, msg)); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}

// BenchmarkIdempotentCall is the cost of at-most-once execution, in
// process, over the in-process memory store, for a tool that modifies:
//
//   - off: no WithIdempotency, the call as BenchmarkToolCall's success;
//   - new_key: each call a new key (claim, run, store the result);
//   - replayed: each call the same key (the stored result replayed).
func BenchmarkIdempotentCall(b *testing.B) {
	for _, name := range []string{"off", "new_key", "replayed"} {
		b.Run(name, func(b *testing.B) {
			opts := []toolerrmcpgo.Option{toolerrmcpgo.WithLogger(quiet)}
			if name != "off" {
				opts = append(opts, toolerrmcpgo.WithIdempotency(nil, idempotency.SharedAnonymousScope()))
			}
			s := server.NewMCPServer("labels", "1.0.0")
			toolerrmcpgo.Install(s, opts...)
			s.AddTool(mcp.NewTool("create_label", mcp.WithDestructiveHintAnnotation(false)),
				func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
					return mcp.NewToolResultText("label L-1"), nil
				})
			ctx := context.Background()
			b.ReportAllocs()
			i := 0
			for b.Loop() {
				key := "k-bench"
				if name == "new_key" {
					i++
					key = "k-" + strconv.Itoa(i)
				}
				msg, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": i, "method": "tools/call",
					"params": map[string]any{"name": "create_label", "_meta": map[string]any{toolerrmcpgo.MetaIdempotencyKey: key}}})
				if err != nil {
					b.Fatal(err)
				}
				if _, err := json.Marshal(s.HandleMessage(ctx, msg)); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
