package mcptest

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/toolerr/toolerr"
)

// upstreamTimeout is how long the suite's tools wait for the vendor that
// never answers.
const upstreamTimeout = 50 * time.Millisecond

// caseVendorError: a vendor's error answer, read by translate.Response,
// reaches the model as the vendor's cause (Stripe's declined card), with
// the upstream's facts and the vendor's message sanitized.
func caseVendorError(env *env) *testCase {
	return &testCase{
		name: "upstream/a vendor's error through translate.Response is the vendor's cause",
		tools: []Tool{newTool("charge_card", func(ctx context.Context, _ json.RawMessage) (any, error) {
			return nil, env.post(ctx, "/v1/charges")
		})},
		calls: []call{callOf("charge_card", `{}`)},
		check: func(t *testing.T, r *report) {
			p := r.failed(t, 0)
			assert.Equal(t, toolerr.CodePaymentRequired, p["code"])
			assert.Equal(t, string(toolerr.CategoryPolicy), p["category"])
			assert.Equal(t, false, p["retryable"])
			assert.Equal(t, "source", p["field"])
			assert.Equal(t, map[string]any{"vendor": "stripe", "status": 402.0, "code": "card_declined", "request_id": stripeRequestID}, p["upstream"])
			assert.True(t, strings.HasPrefix(str(p, "detail"), "Your card was declined."), "the vendor's message: %q", p["detail"])
			details := object(p, "details")
			assert.Equal(t, "insufficient_funds", details["decline_code"])
			assert.Equal(t, "https://stripe.com/docs/error-codes/card-declined", details["doc_url"])
		},
	}
}

// caseHTMLGateway: a gateway's HTML error page becomes UPSTREAM_* with
// none of the page, its internal host or address.
func caseHTMLGateway(env *env) *testCase {
	return &testCase{
		name: "upstream/an HTML 502 page is UPSTREAM_UNAVAILABLE with no HTML",
		tools: []Tool{newTool("gateway_html", func(ctx context.Context, _ json.RawMessage) (any, error) {
			return nil, env.post(ctx, "/gateway")
		})},
		calls: []call{callOf("gateway_html", `{}`)},
		check: func(t *testing.T, r *report) {
			p := r.failed(t, 0)
			assert.Equal(t, toolerr.CodeUpstreamUnavailable, p["code"])
			assert.Equal(t, string(toolerr.CategoryTransient), p["category"])
			assert.Equal(t, 502.0, object(p, "upstream")["status"])
			assert.True(t, strings.HasPrefix(r.text(t, 0), "UPSTREAM_UNAVAILABLE (transient)"), r.text(t, 0))
		},
	}
}

// caseTimeoutIntent: a handler that recorded what it set in motion
// (toolerr.RecordIntent) and then timed out waiting for its upstream
// reaches the model as UPSTREAM_TIMEOUT carrying that intent, in the text
// too; a timeout is retryable only for an idempotent tool.
func caseTimeoutIntent(env *env) *testCase {
	label := newTool("create_label", func(ctx context.Context, _ json.RawMessage) (any, error) {
		toolerr.RecordIntent(ctx, "create_label", "L-77", "submitted", "GET /labels/L-77")
		ctx, cancel := context.WithTimeout(ctx, upstreamTimeout)
		defer cancel()
		return nil, env.post(ctx, "/slow")
	})
	yes := true
	rates := newTool("read_rates", func(ctx context.Context, _ json.RawMessage) (any, error) {
		ctx, cancel := context.WithTimeout(ctx, upstreamTimeout)
		defer cancel()
		return nil, env.post(ctx, "/slow")
	})
	rates.Annotations = Annotations{ReadOnly: &yes, Idempotent: &yes}
	return &testCase{
		name:  "interrupted/a timeout is UPSTREAM_TIMEOUT carrying the recorded intent",
		tools: []Tool{label, rates},
		calls: []call{callOf("create_label", `{}`), callOf("read_rates", `{}`)},
		check: func(t *testing.T, r *report) {
			p := r.failed(t, 0)
			assert.Equal(t, toolerr.CodeUpstreamTimeout, p["code"])
			assert.Equal(t, false, p["retryable"], "a timeout of a mutating tool is not retryable")
			assert.Equal(t, map[string]any{"operation": "create_label", "resource_id": "L-77", "state": "submitted",
				"recovery": "GET /labels/L-77"}, p["intent"])
			assert.Contains(t, r.text(t, 0), "\nintent: create_label, resource_id: L-77, state: submitted, recovery: GET /labels/L-77\n")

			p = r.failed(t, 1)
			assert.Equal(t, toolerr.CodeUpstreamTimeout, p["code"])
			assert.Equal(t, true, p["retryable"], "a timeout of an idempotent tool (idempotentHint) is retryable")
			assert.NotContains(t, p, "intent")
		},
	}
}

// caseCancelledIntent: a handler whose upstream call was cancelled after
// it recorded its intent reaches the model as CANCELLED carrying it.
func caseCancelledIntent(env *env) *testCase {
	return &testCase{
		name: "interrupted/a cancellation is CANCELLED carrying the recorded intent",
		tools: []Tool{newTool("refund", func(ctx context.Context, _ json.RawMessage) (any, error) {
			toolerr.RecordIntent(ctx, "refund", "re_42", "submitted", "GET /refunds/re_42")
			ctx, cancel := context.WithCancel(ctx)
			defer cancel()
			defer time.AfterFunc(upstreamTimeout, cancel).Stop()
			return nil, env.post(ctx, "/slow")
		})},
		calls: []call{callOf("refund", `{}`)},
		check: func(t *testing.T, r *report) {
			p := r.failed(t, 0)
			assert.Equal(t, toolerr.CodeCancelled, p["code"])
			assert.Equal(t, map[string]any{"operation": "refund", "resource_id": "re_42", "state": "submitted",
				"recovery": "GET /refunds/re_42"}, p["intent"])
			assert.Contains(t, r.text(t, 0), "\nintent: refund, resource_id: re_42, state: submitted, recovery: GET /refunds/re_42\n")
		},
	}
}

// caseIntentStaysWithItsCall: what one call recorded never reaches
// another call's error, even in a stateful session, whose calls the
// libraries run under the context of the request that opened it.
func caseIntentStaysWithItsCall(env *env) *testCase {
	return &testCase{
		name: "interrupted/an intent stays with the call that recorded it",
		tools: []Tool{
			newTool("record_intent", func(ctx context.Context, _ json.RawMessage) (any, error) {
				toolerr.RecordIntent(ctx, "create_label", "L-other", "submitted", "GET /labels/L-other")
				return map[string]any{"ok": true}, nil
			}),
			newTool("times_out", func(ctx context.Context, _ json.RawMessage) (any, error) {
				ctx, cancel := context.WithTimeout(ctx, upstreamTimeout)
				defer cancel()
				return nil, env.post(ctx, "/slow")
			}),
		},
		calls: []call{callOf("record_intent", `{}`), callOf("times_out", `{}`)},
		check: func(t *testing.T, r *report) {
			r.succeeded(t, 0)
			p := r.failed(t, 1)
			assert.Equal(t, toolerr.CodeUpstreamTimeout, p["code"])
			assert.NotContains(t, p, "intent", "another call's intent")
		},
	}
}

// caseClientCancels: a client that gives up on a call (MCP's
// notifications/cancelled) cancels the handler's context, and the server
// records the call as CANCELLED, once. The session's next call, a probe,
// reports what the cancelled handler saw, before the server closes (which
// would cancel it too).
func caseClientCancels() *testCase {
	var ended atomic.Value // the error the handler's context ended with
	returned := make(chan struct{})
	var once sync.Once
	cancels := newTool("client_cancels", func(ctx context.Context, _ json.RawMessage) (any, error) {
		defer once.Do(func() { close(returned) })
		toolerr.RecordIntent(ctx, "create_label", "L-88", "submitted", "GET /labels/L-88")
		select {
		case <-ctx.Done():
			ended.Store(ctx.Err())
		case <-time.After(runTimeout):
		}
		return nil, ctx.Err()
	})
	probe := newTool("cancel_probe", func(ctx context.Context, _ json.RawMessage) (any, error) {
		select {
		case <-returned:
		case <-time.After(5 * time.Second):
		}
		err, _ := ended.Load().(error)
		return map[string]any{"cancelled": errors.Is(err, context.Canceled)}, nil
	})
	return &testCase{
		name: "interrupted/a client's cancellation reaches the handler",
		// A stateless server gets MCP's notifications/cancelled on a POST
		// of its own, which it cannot route to the call in flight (and
		// the go-sdk's does not cancel a call whose POST the client
		// closed): cancellation is a property of sessions.
		stateful: true,
		tools:    []Tool{cancels, probe},
		calls:    []call{{tool: "client_cancels", args: noArgs, cancelAfter: 4 * upstreamTimeout}, callOf("cancel_probe", `{}`)},
		check: func(t *testing.T, r *report) {
			assert.NotEmpty(t, r.outs[0].threw, "the client gave up on the call")
			assert.Equal(t, `{"cancelled":true}`, r.text(t, 1), "the handler's context was cancelled while the session went on")
			codes := func() []any {
				var out []any
				for _, rec := range r.logs.records(t) {
					if rec["tool"] == "client_cancels" {
						out = append(out, rec["code"])
					}
				}
				return out
			}
			// The handler has returned; its failure is recorded right after.
			assert.Eventually(t, func() bool { return len(codes()) > 0 }, 5*time.Second, 10*time.Millisecond,
				"the server records the cancelled call")
			assert.Equal(t, []any{toolerr.CodeCancelled}, codes(), "the server recorded the cancelled call once, as CANCELLED")
		},
	}
}
