package mcptest

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolerr/toolerr"
)

// caseGoError: a handler's plain Go error becomes INTERNAL_ERROR; its
// text reaches the operator's log, never the client.
func caseGoError() *testCase {
	const inside = "ledger replica lag"
	return &testCase{
		name: "failure/a returned Go error is INTERNAL_ERROR, its text in the log only",
		tools: []Tool{failing("fail_go_error", func() error {
			return fmt.Errorf("%s on %s: %s", inside, secretDSN, secretPassword)
		})},
		calls: []call{callOf("fail_go_error", `{}`)},
		check: func(t *testing.T, r *report) {
			p := r.failed(t, 0)
			assert.Equal(t, toolerr.CodeInternal, p["code"])
			assert.Equal(t, string(toolerr.CategoryInternal), p["category"])
			assert.Equal(t, false, p["retryable"])
			assert.Equal(t, "fail_go_error", p["tool"])
			res, _ := json.Marshal(r.outs[0].result)
			assert.NotContains(t, string(res), inside, "the Go error's text reaches the client")
			_, _, body := r.exchangeOf(t, 0).response()
			assert.NotContains(t, string(body), inside, "the Go error's text is on the wire")
			assert.Contains(t, r.logOf(t, p)["cause"], inside, "the operator's log keeps the cause")
		},
	}
}

// caseToolerrError: a handler's *toolerr.Error, wrapped in a Go error,
// reaches the client with every member a model acts on; its free text is
// sanitized, never dropped.
func caseToolerrError() *testCase {
	reg := toolerr.Default()
	return &testCase{
		name: "failure/a returned toolerr error keeps code, category, field, allowed values and hint",
		tools: []Tool{
			failing("fail_limit", func() error {
				return fmt.Errorf("track: %w", reg.New(toolerr.CodeValidationFailed, "limit must be at most 100 (replica "+secretDSN+")").
					WithField("limit").
					WithAllowedValues(toolerr.Range{Minimum: 1, Maximum: 100}).
					WithSuggestedValue(100).
					WithHint("Reduce limit to 100 or less. "+secretBearer))
			}),
			failing("fail_not_found", func() error {
				return reg.New(toolerr.CodeNotFound, "No order ord_8f3a2b91.").
					WithDetails(map[string]any{"order_id": "ord_8f3a2b91", "docs": "https://stripe.com/docs/error-codes/card-declined"}).
					WithHint("List the orders first.")
			}),
		},
		calls: []call{callOf("fail_limit", `{}`), callOf("fail_not_found", `{}`)},
		check: func(t *testing.T, r *report) {
			p := r.failed(t, 0)
			assert.Equal(t, toolerr.CodeValidationFailed, p["code"])
			assert.Equal(t, string(toolerr.CategoryValidation), p["category"])
			assert.Equal(t, "limit", p["field"])
			assert.Equal(t, map[string]any{"minimum": 1.0, "maximum": 100.0}, p["allowed_values"])
			assert.Equal(t, 100.0, p["suggested_value"])
			assert.True(t, strings.HasPrefix(str(p, "hint"), "Reduce limit to 100 or less."), "hint %q", p["hint"])
			assert.True(t, strings.HasPrefix(str(p, "detail"), "limit must be at most 100 (replica "), "detail %q", p["detail"])
			text := r.text(t, 0)
			assert.True(t, strings.HasPrefix(text, "VALIDATION_FAILED (validation): limit must be at most 100"), text)
			for _, line := range []string{"\nfield: limit\n", "\nallowed_values: {\"minimum\":1,\"maximum\":100}\n",
				"\nsuggested_value: 100\n", "\nhint: Reduce limit to 100 or less."} {
				assert.Contains(t, text, line, "the text a model reads")
			}

			p = r.failed(t, 1)
			assert.Equal(t, toolerr.CodeNotFound, p["code"])
			assert.Equal(t, 404.0, p["status"])
			assert.Equal(t, "No order ord_8f3a2b91.", p["detail"], "benign identifiers survive")
			assert.Equal(t, map[string]any{"order_id": "ord_8f3a2b91", "docs": "https://stripe.com/docs/error-codes/card-declined"}, p["details"])
			assert.Equal(t, "List the orders first.", p["hint"])
		},
	}
}

// casePanic: a handler's panic becomes INTERNAL_ERROR; its value and
// stack reach the operator's log only, and the server keeps serving.
func casePanic() *testCase {
	return &testCase{
		name: "failure/a panic is INTERNAL_ERROR, its value in the log only",
		tools: []Tool{
			panicking("fail_panic", hostileText),
			panicking("fail_panic_error", fmt.Errorf("ledger: %s", secretAWSKey)),
			newTool("after_panic", func(context.Context, json.RawMessage) (any, error) { return map[string]any{"ok": true}, nil }),
		},
		calls: []call{callOf("fail_panic", `{}`), callOf("fail_panic_error", `{}`), callOf("after_panic", `{}`)},
		check: func(t *testing.T, r *report) {
			for i, tool := range []string{"fail_panic", "fail_panic_error"} {
				p := r.failed(t, i)
				assert.Equal(t, toolerr.CodeInternal, p["code"])
				assert.Equal(t, tool, p["tool"])
				text := r.text(t, i)
				for _, inside := range []string{"charge failed", "ledger", "panic"} {
					assert.NotContains(t, text, inside, "the panic value reaches the model")
				}
				stack, _ := r.logOf(t, p)["stack"].(string)
				assert.NotEmpty(t, stack, "the panic's stack goes to the log")
			}
			assert.Equal(t, `{"ok":true}`, r.text(t, 2), "the server still serves after a panic")
		},
	}
}

// caseTypedOutput: a tool that declares an outputSchema fails with its
// problem object in _meta only, never in structuredContent, which clients
// validate against the schema (the TypeScript SDK throws when it does not
// match); the text is the same as for any tool.
func caseTypedOutput() *testCase {
	reg := toolerr.Default()
	return &testCase{
		name: "failure/a tool with an outputSchema keeps its problem object in _meta only",
		tools: []Tool{
			typed(failing("typed_not_found", func() error {
				return reg.New(toolerr.CodeNotFound, "No symbol ZZZZ is listed.").WithField("symbol")
			})),
			typed(failing("typed_go_error", func() error { return errors.New("quote cache: " + secretPassword) })),
			typed(panicking("typed_panic", "quote cache at "+internalHost)),
		},
		calls: []call{callOf("typed_not_found", `{}`), callOf("typed_go_error", `{}`), callOf("typed_panic", `{}`)},
		check: func(t *testing.T, r *report) {
			p := r.failed(t, 0)
			assert.Equal(t, toolerr.CodeNotFound, p["code"])
			assert.Equal(t, "symbol", p["field"])
			assert.True(t, strings.HasPrefix(r.text(t, 0), "NOT_FOUND (not_found): No symbol ZZZZ is listed.\nretryable: false\nfield: symbol\n"), r.text(t, 0))
			assert.Equal(t, toolerr.CodeInternal, r.failed(t, 1)["code"])
			assert.Equal(t, toolerr.CodeInternal, r.failed(t, 2)["code"])
		},
	}
}
