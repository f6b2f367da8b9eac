package mcptest

import (
	"encoding/json"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolerr/toolerr"
)

// cancelledSchema is the outputSchema of idem_cancel_booking.
var cancelledSchema = json.RawMessage(`{"type":"object","properties":{"cancelled":{"type":"string"}},"required":["cancelled"]}`)

// caseReadOnlyNeverGuarded: a read-only tool (readOnlyHint true) is never
// guarded nor keyed: each repeat runs, with or without a key, and a key
// used again with other arguments is no reuse. For every caller.
func caseReadOnlyNeverGuarded() *testCase {
	var runs atomic.Int32
	list := counting("idem_list_berths", &runs, func(n int32) (any, error) {
		return map[string]any{"free": 3, "run": int(n)}, nil
	})
	yes := true
	list.Annotations = Annotations{ReadOnly: &yes}
	const rotterdam, hamburg = `{"port":"rotterdam"}`, `{"port":"hamburg"}`
	return &testCase{
		name:  "idempotency/a read-only tool runs every time, keyed or not",
		tools: []Tool{list},
		calls: []call{
			callOf("idem_list_berths", rotterdam), again(callOf("idem_list_berths", rotterdam)),
			again(keyed("idem_list_berths", rotterdam, keyBerthsList)), again(keyed("idem_list_berths", rotterdam, keyBerthsList)),
			keyed("idem_list_berths", hamburg, keyBerthsList),
		},
		check: func(t *testing.T, r *report) {
			for i := range 5 {
				r.succeeded(t, i)
				r.fresh(t, i)
				assert.Equal(t, `{"free":3,"run":`+strconv.Itoa(i+1)+`}`, r.text(t, i), "call %d ran", i)
			}
			assert.Equal(t, int32(5), runs.Load())
		},
	}
}

// caseUnguardedTools: a tool without annotations, and a mutating tool
// declared idempotent (idempotentHint true), are never blocked by the
// duplicate guard: each keyless repeat runs.
func caseUnguardedTools() *testCase {
	var plain, status atomic.Int32
	bare := counting("idem_plain_note", &plain, func(n int32) (any, error) { return map[string]any{"run": int(n)}, nil })
	set := counting("idem_set_status", &status, func(n int32) (any, error) { return map[string]any{"run": int(n)}, nil })
	yes := true
	set.Annotations = Annotations{Destructive: &yes, Idempotent: &yes}
	const note, state = `{"note":"draft"}`, `{"vessel":"IMO9321483","status":"moored"}`
	return &testCase{
		name:  "idempotency/a tool without annotations or declared idempotent is never blocked",
		tools: []Tool{bare, set},
		calls: []call{
			callOf("idem_plain_note", note), again(callOf("idem_plain_note", note)), again(callOf("idem_plain_note", note)),
			callOf("idem_set_status", state), again(callOf("idem_set_status", state)),
		},
		check: func(t *testing.T, r *report) {
			for i := range 5 {
				r.succeeded(t, i)
				r.fresh(t, i)
			}
			assert.Equal(t, `{"run":3}`, r.text(t, 2))
			assert.Equal(t, `{"run":2}`, r.text(t, 4))
			assert.Equal(t, int32(3), plain.Load(), "a tool without annotations runs every time")
			assert.Equal(t, int32(2), status.Load(), "an idempotent tool runs every time")
		},
	}
}

// caseRetryableFailureNotKept: a failure that may pass on retry
// (UPSTREAM_UNAVAILABLE, retryable) is not kept: a retry with the same key
// runs again, and the result it gets is the one replayed after; a keyless
// repeat after it is no duplicate. Nor is a panic kept: the retry with
// its key runs again.
func caseRetryableFailureNotKept() *testCase {
	var pays, notifies, panics atomic.Int32
	flaky := func(what string) func(n int32) (any, error) {
		return func(n int32) (any, error) {
			if n == 1 {
				return nil, toolerr.Default().New(toolerr.CodeUpstreamUnavailable, "The "+what+" network did not answer.")
			}
			return map[string]any{what: int(n)}, nil
		}
	}
	pay := mutating(counting("idem_send_payment", &pays, flaky("payment")), true)
	notify := mutating(counting("idem_notify_crew", &notifies, flaky("pager")), false)
	release := mutating(counting("idem_release_hold", &panics, func(n int32) (any, error) {
		if n == 1 {
			panic("hold ledger at " + internalHost)
		}
		return map[string]any{"released": int(n)}, nil
	}), true)
	const payment, crew, hold = `{"amount_minor":9900,"to":"acct_77"}`, `{"crew":"night shift"}`, `{"hold":"h_31"}`
	return &testCase{
		name:  "idempotency/a retryable failure or a panic is not kept: the retry runs again",
		tools: []Tool{pay, notify, release},
		calls: []call{
			keyed("idem_send_payment", payment, keyPayment), again(keyed("idem_send_payment", payment, keyPayment)),
			again(keyed("idem_send_payment", payment, keyPayment)),
			callOf("idem_notify_crew", crew), again(callOf("idem_notify_crew", crew)),
			keyed("idem_release_hold", hold, keyHold), again(keyed("idem_release_hold", hold, keyHold)),
		},
		check: func(t *testing.T, r *report) {
			p := r.failed(t, 3)
			assert.Equal(t, toolerr.CodeUpstreamUnavailable, p["code"])
			r.succeeded(t, 4)
			r.fresh(t, 4)
			assert.Equal(t, `{"pager":2}`, r.text(t, 4), "the repeat of a call that may pass ran")
			assert.Equal(t, int32(2), notifies.Load())
			if r.anonymous() {
				r.unauthenticated(t, 0, 1, 2, 5, 6)
				assert.Zero(t, pays.Load()+panics.Load(), "a refused call never runs")
				return
			}
			p = r.failed(t, 0)
			assert.Equal(t, toolerr.CodeUpstreamUnavailable, p["code"])
			assert.Equal(t, true, p["retryable"])
			r.succeeded(t, 1)
			r.fresh(t, 1)
			assert.Equal(t, `{"payment":2}`, r.text(t, 1), "the retry ran")
			r.replayed(t, 2, 1)
			assert.Equal(t, int32(2), pays.Load(), "the payment ran for the failure and for the retry, not for the replay")

			assert.Equal(t, toolerr.CodeInternal, r.failed(t, 5)["code"])
			r.succeeded(t, 6)
			r.fresh(t, 6)
			assert.Equal(t, `{"released":2}`, r.text(t, 6), "the retry after a panic ran")
		},
	}
}

// caseFailureReplayed: a failure that would fail the same way again
// (NOT_FOUND, not retryable) is kept like a success: a retry with the key
// gets it replayed, the first call's problem object with the first call's
// ids (in _meta only: the tool declares an outputSchema), and the handler
// does not run again. The replay is not a failure of its own: it is not
// logged, traced or counted again (the group's count check). A failed
// call did not act, so its keyless repeat is no duplicate action: it runs
// and fails with its true cause again, never DUPLICATE_ACTION saying the
// first call completed.
func caseFailureReplayed() *testCase {
	var runs atomic.Int32
	cancel := mutating(counting("idem_cancel_booking", &runs, func(int32) (any, error) {
		return nil, toolerr.Default().New(toolerr.CodeNotFound, "No booking is open under this id.")
	}), true)
	cancel.OutputSchema = cancelledSchema
	const args, other = `{"booking":"bk_5521"}`, `{"booking":"bk_6001"}`
	return &testCase{
		name:  "idempotency/a failure that would recur is replayed to a retry, recorded once, and is no duplicate",
		tools: []Tool{cancel},
		calls: []call{
			keyed("idem_cancel_booking", args, keyBooking), again(keyed("idem_cancel_booking", args, keyBooking)),
			callOf("idem_cancel_booking", other), again(callOf("idem_cancel_booking", other)),
		},
		check: func(t *testing.T, r *report) {
			for _, i := range []int{2, 3} {
				p := r.failed(t, i)
				assert.Equal(t, toolerr.CodeNotFound, p["code"], "a keyless repeat of a failed call fails with its true cause")
				r.fresh(t, i)
			}
			if r.anonymous() {
				r.unauthenticated(t, 0, 1)
				assert.Equal(t, int32(2), runs.Load(), "a refused call never runs")
				return
			}
			p := r.failed(t, 0)
			assert.Equal(t, toolerr.CodeNotFound, p["code"])
			r.fresh(t, 0)
			r.replayed(t, 1, 0)
			assert.Empty(t, r.recordsOf(t, r.exchangeOf(t, 1).requestID()), "the replay is not logged as a failure of its own")
			assert.Equal(t, int32(3), runs.Load(), "the handler ran once for the key, and for each keyless call")
		},
	}
}
