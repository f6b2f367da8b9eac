package toolerrmcpgo_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/mark3labs/mcp-go/server"

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
