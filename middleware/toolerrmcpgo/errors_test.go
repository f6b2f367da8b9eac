package toolerrmcpgo_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/toolerrmcpgo"
)

// placements are the ways a server can have WithRecovery and toolerr.
var placements = []struct {
	name string
	p    placement
}{
	{"without WithRecovery", noRecovery},
	{"WithRecovery outside toolerr", recoveryOuter},
	{"WithRecovery inside toolerr", recoveryInner},
}

// TestBareMCPGoLeaks is the bug report, reproduced without toolerr: the
// driver's error, password included, is the JSON-RPC error's message, and
// a *toolerr.Error loses its structure. The tests below assert the fix.
func TestBareMCPGoLeaks(t *testing.T) {
	s := (&orders{}).server(installSkipped, nil)
	a := handle(t, context.Background(), s, callMessage("db_down", map[string]any{}))
	require.NotNil(t, a.Error)
	assert.Equal(t, -32603, a.Error.Code)
	assert.Contains(t, a.Error.Message, dbSecret)
	a = handle(t, context.Background(), s, callMessage("refund_order", map[string]any{"order_id": "ord_conflict"}))
	require.NotNil(t, a.Error)
	assert.Equal(t, "refund: CONFLICT: order ord_conflict was already refunded", a.Error.Message)
}

// TestHandlerErrorsBecomeToolResults: each failure of the bug report, for
// every placement of WithRecovery: a tool result whose text is the whole
// observation, the problem object in _meta, nothing secret anywhere the
// agent reads, one log record whose cause has the secret redacted.
func TestHandlerErrorsBecomeToolResults(t *testing.T) {
	for _, pl := range placements {
		t.Run(pl.name, func(t *testing.T) {
			logger, logs := newLogger()
			s := (&orders{}).server(pl.p, []toolerrmcpgo.Option{toolerrmcpgo.WithLogger(logger)})

			t.Run("a Go error holding a password and an internal host", func(t *testing.T) {
				before := len(logs.failures(t))
				wire := s.HandleMessage(context.Background(), callMessage("db_down", map[string]any{}))
				raw, err := json.Marshal(wire)
				require.NoError(t, err)
				assert.NotContains(t, string(raw), dbSecret)
				assert.NotContains(t, string(raw), dbHost)
				assert.NotContains(t, string(raw), "password authentication")
				res := callTool(t, s, "db_down", map[string]any{})
				p := problemOf(t, res)
				assert.Equal(t, toolerr.CodeInternal, p["code"])
				assert.Equal(t, "db_down", p["tool"])
				assert.True(t, strings.HasPrefix(textOf(t, res), "INTERNAL_ERROR (internal)\nretryable: false\n"), textOf(t, res))
				recs := logs.failures(t)[before:]
				require.Len(t, recs, 2, "one record per call")
				cause, _ := recs[0]["cause"].(string)
				assert.Contains(t, cause, "password authentication failed", "the operator reads the cause")
				assert.NotContains(t, cause, dbSecret, "with the password redacted")
			})

			t.Run("a returned *toolerr.Error keeps its code, category, field and hint", func(t *testing.T) {
				res := callTool(t, s, "refund_order", map[string]any{"order_id": "ord_conflict"})
				p := problemOf(t, res)
				assert.Equal(t, toolerr.CodeConflict, p["code"])
				assert.Equal(t, "conflict", p["category"])
				assert.Equal(t, "/order_id", p["field"])
				assert.Equal(t, "refund_order", p["tool"])
				assert.Equal(t, p, res["structuredContent"], "a tool without outputSchema gets the problem as structured content")
				text := textOf(t, res)
				assert.True(t, strings.HasPrefix(text, "CONFLICT (conflict): order ord_conflict was already refunded\n"+
					"retryable: false\nfield: /order_id\nactions: read_state_first\nhint: Do not refund ord_conflict again; look the refund up instead.\n"), text)
				assert.Contains(t, text, "\nrequest_id: "+p["request_id"].(string))
			})

			t.Run("a tool with an outputSchema gets the problem in _meta only", func(t *testing.T) {
				res := callTool(t, s, "refund_typed", map[string]any{"order_id": "ord_conflict"})
				assert.NotContains(t, res, "structuredContent")
				assert.Equal(t, toolerr.CodeConflict, problemOf(t, res)["code"])
			})

			t.Run("a vendor's error read by translate.Response", func(t *testing.T) {
				p := problemOf(t, callTool(t, s, "vendor_402", map[string]any{}))
				assert.Equal(t, "PAYMENT_REQUIRED", p["code"])
				assert.Equal(t, "Your card was declined.", p["detail"])
				details, _ := p["details"].(map[string]any)
				assert.Equal(t, "insufficient_funds", details["decline_code"])
			})

			t.Run("a deadline of a mutating tool, with its recorded intent", func(t *testing.T) {
				res := callTool(t, s, "label_timeout", map[string]any{})
				p := problemOf(t, res)
				assert.Equal(t, toolerr.CodeUpstreamTimeout, p["code"])
				assert.Equal(t, false, p["retryable"], "idempotentHint false: the label may exist")
				intent, _ := p["intent"].(map[string]any)
				assert.Equal(t, "L-77", intent["resource_id"])
				assert.Contains(t, textOf(t, res), "L-77")
			})

			t.Run("a deadline of a read-only tool is retryable", func(t *testing.T) {
				p := problemOf(t, callTool(t, s, "quote_timeout", map[string]any{}))
				assert.Equal(t, toolerr.CodeUpstreamTimeout, p["code"])
				assert.Equal(t, true, p["retryable"])
			})

			t.Run("no result and no error", func(t *testing.T) {
				assert.Equal(t, toolerr.CodeInternal, problemOf(t, callTool(t, s, "no_result", map[string]any{}))["code"])
			})

			t.Run("an IsError result the handler built passes untouched", func(t *testing.T) {
				res := callTool(t, s, "out_of_stock", map[string]any{})
				assert.Equal(t, true, res["isError"])
				assert.Equal(t, "out of stock at "+dbHost, textOf(t, res))
				assert.NotContains(t, res, "_meta")
			})

			t.Run("a success passes untouched", func(t *testing.T) {
				res := callTool(t, s, "ok", map[string]any{})
				assert.Equal(t, "fine", textOf(t, res))
				assert.NotContains(t, res, "isError")
				assert.NotContains(t, res, "_meta")
			})

			t.Run("a URL elicitation stays a protocol error", func(t *testing.T) {
				a := handle(t, context.Background(), s, callMessage("needs_login", map[string]any{}))
				require.NotNil(t, a.Error, "%v", a.Result)
				assert.Equal(t, -32042, a.Error.Code)
				assert.Equal(t, "URL elicitation required: 1 elicitation(s) needed", a.Error.Message)
			})
		})
	}
}

// TestBugReportOverHTTP: the bug report's calls over streamable HTTP under
// toolerr's middleware, with every Go client: no protocol error, each an
// isError result, and the password in no byte of any answer.
func TestBugReportOverHTTP(t *testing.T) {
	for _, kind := range goClients {
		t.Run(kind.name, func(t *testing.T) {
			r := newRig(t, recoveryOuter, nil)
			w := newWire(nil)
			a := kind.connect(t, r.url+"/mcp", w)
			for tool, code := range map[string]string{"db_down": toolerr.CodeInternal, "refund_order": toolerr.CodeConflict,
				"nil_map": toolerr.CodeInternal, "panic_secret": toolerr.CodeInternal} {
				res, err := a.call(t, tool, map[string]any{"order_id": "ord_conflict"})
				require.NoError(t, err, tool)
				assert.Equal(t, code, problemOf(t, res)["code"], tool)
			}
			for _, ex := range w.exchanges() {
				assert.NotContains(t, ex.text(), dbSecret)
				assert.NotContains(t, ex.text(), dbHost)
				assert.NotContains(t, ex.text(), "nil map")
			}
		})
	}
}

// TestIdempotentDefault: a tool whose annotations say nothing of
// idempotency (built with NewToolWithRawSchema) takes WithIdempotent's
// default; one built with mcp.NewTool says false unless told otherwise.
func TestIdempotentDefault(t *testing.T) {
	for _, idempotent := range []bool{false, true} {
		s := (&orders{}).server(noRecovery, []toolerrmcpgo.Option{toolerrmcpgo.WithLogger(quiet), toolerrmcpgo.WithIdempotent(idempotent)})
		s.AddTool(mcp.NewToolWithRawSchema("lookup_timeout", "Times out.", json.RawMessage(`{"type":"object"}`)),
			func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				return nil, fmt.Errorf("lookup: %w", context.DeadlineExceeded)
			})
		p := problemOf(t, callTool(t, s, "lookup_timeout", map[string]any{}))
		assert.Equal(t, idempotent, p["retryable"], "no annotation: the default")
		p = problemOf(t, callTool(t, s, "label_timeout", map[string]any{}))
		assert.Equal(t, false, p["retryable"], "idempotentHint false wins")
	}
}
