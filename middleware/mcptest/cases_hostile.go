package mcptest

import (
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolerr/toolerr"
)

// benignDetails are identifiers that are no secret: each must reach the
// model as the handler wrote it.
var benignDetails = map[string]any{
	"order_id":        "ord_8f3a2b91",
	"uuid":            "3fa85f64-5717-4562-b3fc-2c963f66afa6",
	"commit":          "a94a8fe5ccb19ba61c4c0873d391e987982fbbd3",
	"docs":            "https://stripe.com/docs/error-codes/card-declined",
	"idempotency_key": "idem-7f3c9e21-4b6d-4a8e-b1f0-2d5c8e9a7b13",
}

// hostileError is a handler's toolerr error with the hostile text in
// every member a handler can set, the benign identifiers in its details,
// and a request id of its own.
func hostileError() error {
	reg := toolerr.Default()
	item := reg.New(toolerr.CodeNotFound, "item lookup on "+internalHost+": "+secretBearer).
		WithDetails(map[string]any{"dsn": secretDSN}).WithHint("Retry with " + secretStripe + ".")
	e := reg.New(toolerr.CodeValidationFailed, hostileText).
		WithField("/card/"+secretStripe).
		WithAllowedValues([]any{"visa", hostileText, map[string]any{"key": secretAWSKey}}).
		WithSuggestedValue(map[string]any{"dsn": secretDSN, "ip": internalIP}).
		WithHint("Use "+secretStripe+" instead.\n"+goStack).
		WithHumanHint("Ask the team at "+internalHost+".").
		WithSuggestions("rotate "+secretBearer, htmlPage).
		WithDetails(map[string]any{"deep": map[string]any{"list": []any{hostileText}}, secretStripe: "a secret as a key"}).
		WithDetails(benignDetails).
		WithExampleRequest(map[string]any{"token": secretBearer, "db": secretDSN}).
		WithIntent(toolerr.Intent{Operation: "charge " + secretStripe, ResourceID: secretAWSKeyID, State: internalHost,
			Recovery: "GET http://" + internalIP + "/charges?" + secretPassword}).
		WithTool("charge_" + secretStripe).
		WithUpstream(toolerr.Upstream{Vendor: "stripe", Status: 402, Code: secretStripe, RequestID: "req_" + secretStripe}).
		WithItems(toolerr.ItemError{Index: 0, Err: item}).
		WithRequestID(secretStripe)
	return fmt.Errorf("charge: %w", e)
}

// caseHostile: secrets (a password, a Stripe key, AWS keys, a bearer
// token, a DSN with its password), internal hosts and addresses, an HTML
// page and a Go stack trace, planted in a toolerr error's every member, in
// a Go error, in a panic value, in a detail and in a hint, reach no byte
// the client gets (the per-call checks and the wire sweep) while the
// error's shape and benign identifiers survive.
func caseHostile() *testCase {
	reg := toolerr.Default()
	return &testCase{
		name: "hostile/nothing secret, internal, HTML or a stack reaches the client",
		tools: []Tool{
			failing("hostile_toolerr", hostileError),
			failing("hostile_go_error", func() error { return errors.New(hostileText) }),
			panicking("hostile_panic", errors.New(hostileText)),
			failing("hostile_html_detail", func() error { return reg.New(toolerr.CodeUpstreamUnavailable, htmlPage) }),
			failing("hostile_stack_hint", func() error {
				return reg.New(toolerr.CodeConflict, "The ledger is locked:\n"+goStack).WithHint("Retry once the ledger is unlocked.\n" + goStack)
			}),
		},
		calls: []call{callOf("hostile_toolerr", `{}`), callOf("hostile_go_error", `{}`), callOf("hostile_panic", `{}`),
			callOf("hostile_html_detail", `{}`), callOf("hostile_stack_hint", `{}`)},
		check: func(t *testing.T, r *report) {
			p := r.failed(t, 0)
			assert.Equal(t, toolerr.CodeValidationFailed, p["code"])
			assert.NotEmpty(t, p["field"], "the field is cleaned, not dropped")
			allowed, _ := p["allowed_values"].([]any)
			if assert.Len(t, allowed, 3, "allowed_values keeps its shape") {
				assert.Equal(t, "visa", allowed[0])
			}
			items, _ := p["errors"].([]any)
			assert.Len(t, items, 1, "errors[] keeps its item")
			details := object(p, "details")
			for k, v := range benignDetails {
				assert.Equal(t, v, details[k], "the benign %s survives", k)
			}
			assert.Equal(t, toolerr.CodeInternal, r.failed(t, 1)["code"])
			assert.Equal(t, toolerr.CodeInternal, r.failed(t, 2)["code"])
			assert.Equal(t, toolerr.CodeUpstreamUnavailable, r.failed(t, 3)["code"])
			p = r.failed(t, 4)
			assert.Equal(t, toolerr.CodeConflict, p["code"])
			assert.Contains(t, p["detail"], "The ledger is locked", "the detail is cleaned, not dropped")
		},
	}
}
