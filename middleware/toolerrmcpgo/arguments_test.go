package toolerrmcpgo_test

import (
	"context"
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/toolerrmcpgo"
)

// fields returns the fields of a problem's violations.
func fields(p map[string]any) []string {
	var out []string
	vs, _ := p["violations"].([]any)
	for _, v := range vs {
		m, _ := v.(map[string]any)
		f, _ := m["field"].(string)
		out = append(out, f)
	}
	return out
}

// TestInputSchemaValidationBecomesValidationFailed: with mcp-go's
// WithInputSchemaValidation, which answers before any tool middleware,
// arguments that break the schema get argcheck's VALIDATION_FAILED for
// every WithRecovery placement: each violation with its field and repair,
// an example_request the server accepts, mcp-go's text (the values it
// quotes) in the log only, and the handler never runs.
func TestInputSchemaValidationBecomesValidationFailed(t *testing.T) {
	for _, pl := range placements {
		t.Run(pl.name, func(t *testing.T) {
			o := &orders{}
			logger, logs := newLogger()
			s := o.server(pl.p, []toolerrmcpgo.Option{toolerrmcpgo.WithLogger(logger)}, server.WithInputSchemaValidation())
			before := len(logs.failures(t))
			res := callTool(t, s, "charge", map[string]any{"amount": 900, "currency": "EUR"})
			p := problemOf(t, res)
			assert.Equal(t, toolerr.CodeValidationFailed, p["code"])
			assert.Equal(t, "charge", p["tool"])
			assert.ElementsMatch(t, []string{"/amount", "/currency"}, fields(p))
			assert.Nil(t, p["example_request"], "900 is what the user asked to charge: never clamped to 500")
			assert.Contains(t, p["hint"], "ask the user which amount to use, between 1 and 500")
			text := textOf(t, res)
			assert.Contains(t, text, "\nviolation: /amount must be between 1 and 500")
			assert.NotContains(t, text, "Got:900")
			assert.Zero(t, o.ran.Load(), "the handler never ran")
			recs := logs.failures(t)[before:]
			require.Len(t, recs, 1)
			cause, _ := recs[0]["cause"].(string)
			assert.True(t, strings.HasPrefix(cause, "input schema validation failed: "), cause)
			assert.Contains(t, cause, "/amount: &{Got:900/1 Want:500/1}", "mcp-go's words reach the log")

			res = callTool(t, s, "charge", map[string]any{"amount": "90", "currency": "EUR"})
			p = problemOf(t, res)
			assert.Equal(t, map[string]any{"amount": float64(90), "currency": "eur"}, p["example_request"])
			assert.Contains(t, textOf(t, res), "\nexample_request: ")
			res = callTool(t, s, "charge", p["example_request"].(map[string]any))
			assert.Equal(t, "charged", textOf(t, res), "the repaired call runs")
			assert.Equal(t, int32(1), o.ran.Load())
		})
	}
}

// TestValidationHooksSeeTheFinalResult: the server's own hooks, those
// given at construction and those added after Install, see the result
// the client gets.
func TestValidationHooksSeeTheFinalResult(t *testing.T) {
	hooks := &server.Hooks{}
	var early, late []string
	hooks.AddOnSuccess(func(_ context.Context, _ any, method mcp.MCPMethod, _ any, res any) {
		if r, ok := res.(*mcp.CallToolResult); ok && method == mcp.MethodToolsCall {
			early = append(early, mcp.GetTextFromContent(r.Content[0]))
		}
	})
	s := (&orders{}).server(noRecovery, []toolerrmcpgo.Option{toolerrmcpgo.WithLogger(quiet)},
		server.WithInputSchemaValidation(), server.WithHooks(hooks))
	s.GetHooks().AddAfterCallTool(func(_ context.Context, _ any, _ *mcp.CallToolRequest, res any) {
		if r, ok := res.(*mcp.CallToolResult); ok {
			late = append(late, mcp.GetTextFromContent(r.Content[0]))
		}
	})
	callTool(t, s, "charge", map[string]any{"amount": 900, "currency": "eur"})
	require.Len(t, early, 1)
	require.Len(t, late, 1)
	for _, got := range []string{early[0], late[0]} {
		assert.True(t, strings.HasPrefix(got, "VALIDATION_FAILED (validation): amount must be between 1 and 500"), got)
	}
}

// TestAHandlersOwnValidationWordsPassUntouched: an IsError result a
// handler built itself passes as it is, even when it reads like mcp-go's
// answer to invalid arguments and validation is on.
func TestAHandlersOwnValidationWordsPassUntouched(t *testing.T) {
	s := (&orders{}).server(noRecovery, []toolerrmcpgo.Option{toolerrmcpgo.WithLogger(quiet)}, server.WithInputSchemaValidation())
	res := callTool(t, s, "mimic_validation", map[string]any{"order_id": "ord_1"})
	assert.Equal(t, "input schema validation failed: /order_id: the handler's own words", textOf(t, res))
	assert.NotContains(t, res, "_meta")
}

// TestStrictSchemaRejectsUnknownArguments: with WithStrictInputSchemaDefault,
// a misspelt argument name is VALIDATION_FAILED naming the argument meant.
func TestStrictSchemaRejectsUnknownArguments(t *testing.T) {
	s := (&orders{}).server(noRecovery, []toolerrmcpgo.Option{toolerrmcpgo.WithLogger(quiet)},
		server.WithInputSchemaValidation(), server.WithStrictInputSchemaDefault())
	p := problemOf(t, callTool(t, s, "refund_order", map[string]any{"orderId": "ord_1"}))
	assert.Equal(t, toolerr.CodeValidationFailed, p["code"])
	assert.Contains(t, fields(p), "/orderId")
	assert.Equal(t, map[string]any{"order_id": "ord_1"}, p["example_request"], "the argument renamed, its value kept")
}

// TestWithoutValidationTheHandlerDecides: without WithInputSchemaValidation
// mcp-go runs the handler whatever the arguments, and so does toolerr:
// the server's author turned validation off. What the handler refuses
// through mcp-go's accessors is VALIDATION_FAILED naming the field; a
// decoding error of other JSON the handler read is not the arguments'
// fault.
func TestWithoutValidationTheHandlerDecides(t *testing.T) {
	o := &orders{}
	s := o.server(noRecovery, []toolerrmcpgo.Option{toolerrmcpgo.WithLogger(quiet)})

	res := callTool(t, s, "charge", map[string]any{"amount": 900, "currency": "EUR"})
	assert.Equal(t, "charged", textOf(t, res), "the handler ran and its success passes")
	assert.Equal(t, int32(1), o.ran.Load())

	t.Run("RequireString of a missing argument", func(t *testing.T) {
		res := callTool(t, s, "get_order", map[string]any{})
		p := problemOf(t, res)
		assert.Equal(t, toolerr.CodeValidationFailed, p["code"])
		assert.Equal(t, "/order_id", p["field"])
		assert.Equal(t, "order_id is required.", p["detail"])
		assert.Equal(t, "Ask the user for order_id. Then call again.", p["hint"])
		assert.Nil(t, p["suggested_value"], "no value is invented")
		assert.True(t, strings.HasPrefix(textOf(t, res), "VALIDATION_FAILED (validation): order_id is required.\n"), textOf(t, res))
	})

	t.Run("RequireString of a number breaks the schema too: argcheck's words", func(t *testing.T) {
		p := problemOf(t, callTool(t, s, "get_order", map[string]any{"order_id": 42}))
		assert.Equal(t, toolerr.CodeValidationFailed, p["code"])
		assert.Equal(t, "/order_id", p["field"])
		assert.Equal(t, []string{"/order_id"}, fields(p))
	})

	t.Run("BindArguments into a stricter Go type", func(t *testing.T) {
		p := problemOf(t, callTool(t, s, "bind_order", map[string]any{"qty": "three"}))
		assert.Equal(t, toolerr.CodeValidationFailed, p["code"])
		assert.Equal(t, "/qty", p["field"])
		assert.Equal(t, map[string]any{"type": "integer"}, p["allowed_values"])
		assert.Nil(t, p["suggested_value"])
	})

	t.Run("a JSON error of the handler's own data", func(t *testing.T) {
		for _, args := range []map[string]any{{}, {"qty": 5}} {
			p := problemOf(t, callTool(t, s, "decode_upstream", args))
			assert.Equal(t, toolerr.CodeInternal, p["code"], "%v: the warehouse's answer is not the agent's to fix", args)
		}
	})
}

// TestConcurrentCallsKeepTheirOwnState: calls in flight together on one
// server, some rejected by mcp-go's validation, some answered by their
// handler with words alike, each get their own answer: what the adapter
// notes of a call belongs to that call alone.
func TestConcurrentCallsKeepTheirOwnState(t *testing.T) {
	s := (&orders{}).server(noRecovery, unknownOn, server.WithInputSchemaValidation())
	const n = 64
	calls := func(i int) []json.RawMessage {
		return []json.RawMessage{
			callMessage("charge", map[string]any{"amount": 900 + i, "currency": "eur"}),
			callMessage("mimic_validation", map[string]any{"order_id": "ord_1"}),
			callMessage("refund_ordr", map[string]any{}),
		}
	}
	raw := make([][]any, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			for _, msg := range calls(i) {
				raw[i] = append(raw[i], s.HandleMessage(context.Background(), msg))
			}
		})
	}
	wg.Wait()
	for i, answers := range raw {
		res := make([]map[string]any, len(answers))
		for j, a := range answers {
			res[j] = asMap(t, a)["result"].(map[string]any)
		}
		assert.Equal(t, toolerr.CodeValidationFailed, problemOf(t, res[0])["code"], i)
		assert.Equal(t, "input schema validation failed: /order_id: the handler's own words", textOf(t, res[1]), i)
		assert.Equal(t, toolerr.CodeToolNotFound, problemOf(t, res[2])["code"], i)
	}
}
