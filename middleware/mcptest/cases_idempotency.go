package mcptest

import (
	"encoding/json"
	"strconv"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolerr/toolerr"
)

// labelSchema is the outputSchema of idem_create_label.
var labelSchema = json.RawMessage(`{"type":"object","properties":{"label":{"type":"string"},"carrier":{"type":"string"}},"required":["label"]}`)

// The idempotency keys of the cases: one per operation, as a client makes
// them.
const (
	keyLabel      = "idem-label-5f1c2a9e-b7d4-4c3e-9a01-6e2f8d4b1c70"
	keyLabelNew   = "idem-label-0a93e6d1-2c5b-4f7a-8e14-3b9d7c6a5f28"
	keyCharge     = "idem-charge-8d2e4f61-a3b9-4c07-b5e2-1f6a9c3d7e84"
	keyInvoice    = "idem-invoice-3e7a1c95-6b2d-4e8f-a074-9c1d5b3f2a66"
	keyBerthsList = "idem-berths-c4f80b2a-1d6e-4a93-8b57-2e0f9a6c3d11"
	keyPayment    = "idem-payment-7b3d9e20-4f1a-4c6b-9d85-0a2e6f8c1b93"
	keyBooking    = "idem-booking-e15a7c3f-9b28-4d06-a4e1-5c7f2b9d0e38"
	keyHold       = "idem-hold-2f6d8a41-c9e3-4b75-8d02-7a1e5f3c9b60"
	keyCrane      = "idem-crane-9a4c2e7f-3b18-4f6d-a5c9-0e8b7d2f1a43"
)

// caseKeyedRetryRunsOnce: a mutation retried with the same idempotency
// key and arguments runs once; the retry gets the first call's result
// (content and structuredContent) marked replayed. A new key is a new
// operation and runs. A client nothing identifies (stateless, without
// credentials) has each keyed call refused with UNAUTHENTICATED, the
// handler never run: its key could not be told from another caller's.
func caseKeyedRetryRunsOnce() *testCase {
	var runs atomic.Int32
	label := mutating(counting("idem_create_label", &runs, func(n int32) (any, error) {
		return map[string]any{"label": "L-" + strconv.Itoa(int(n)), "carrier": "posten"}, nil
	}), true)
	label.OutputSchema = labelSchema
	const args = `{"to":"Oslo","weight_g":1200}`
	return &testCase{
		name:  "idempotency/a keyed mutation retried runs once and the retry gets its result",
		tools: []Tool{label},
		calls: []call{keyed("idem_create_label", args, keyLabel), again(keyed("idem_create_label", args, keyLabel)),
			again(keyed("idem_create_label", args, keyLabel)), again(keyed("idem_create_label", args, keyLabelNew))},
		check: func(t *testing.T, r *report) {
			if r.anonymous() {
				r.unauthenticated(t, 0, 1, 2, 3)
				assert.Zero(t, runs.Load(), "a refused call never runs")
				return
			}
			res := r.succeeded(t, 0)
			r.fresh(t, 0)
			assert.Equal(t, map[string]any{"label": "L-1", "carrier": "posten"}, res["structuredContent"])
			r.replayed(t, 1, 0)
			r.replayed(t, 2, 0)
			res = r.succeeded(t, 3)
			r.fresh(t, 3)
			assert.Equal(t, map[string]any{"label": "L-2", "carrier": "posten"}, res["structuredContent"], "a new key is a new operation")
			assert.Equal(t, int32(2), runs.Load(), "the mutation ran once per key")
		},
	}
}

// caseKeyReused: a key used again with other arguments, or for another
// tool, is IDEMPOTENCY_KEY_REUSED (not retryable), saying which differs
// and where a new key goes, echoing neither the arguments nor the key;
// the handler does not run.
func caseKeyReused() *testCase {
	var charges, refunds atomic.Int32
	charge := mutating(counting("idem_charge", &charges, func(n int32) (any, error) {
		return map[string]any{"charge": "ch_" + strconv.Itoa(int(n))}, nil
	}), true)
	refund := mutating(counting("idem_refund", &refunds, func(n int32) (any, error) {
		return map[string]any{"refund": "re_" + strconv.Itoa(int(n))}, nil
	}), true)
	const (
		args     = `{"amount_minor":4200,"currency":"NOK","to":"Oslo-Harbour"}`
		other    = `{"amount_minor":4200,"currency":"NOK","to":"Bergen-Quay-7731"}`
		firstTo  = "Oslo-Harbour"
		secondTo = "Bergen-Quay-7731"
	)
	return &testCase{
		name:  "idempotency/a key reused with other arguments or another tool is IDEMPOTENCY_KEY_REUSED",
		tools: []Tool{charge, refund},
		calls: []call{keyed("idem_charge", args, keyCharge), keyed("idem_charge", other, keyCharge), keyed("idem_refund", args, keyCharge)},
		check: func(t *testing.T, r *report) {
			for _, i := range []int{1, 2} {
				r.assertNoEcho(t, i, keyCharge, firstTo, secondTo)
			}
			if r.anonymous() {
				r.unauthenticated(t, 0, 1, 2)
				assert.Zero(t, charges.Load()+refunds.Load(), "a refused call never runs")
				return
			}
			r.succeeded(t, 0)
			for i, differs := range map[int]string{1: "arguments", 2: "tool"} {
				p := r.failed(t, i)
				assert.Equal(t, toolerr.CodeIdempotencyKeyReused, p["code"])
				assert.Equal(t, string(toolerr.CategoryValidation), p["category"])
				assert.Equal(t, false, p["retryable"], "the same key will be refused again")
				assert.Equal(t, map[string]any{"differs": differs}, p["details"], "what differs, never its values")
				r.assertTellsWhereKeysGo(t, i)
			}
			assert.Equal(t, int32(1), charges.Load(), "the charge ran once")
			assert.Zero(t, refunds.Load(), "the refund under the charge's key never ran")
		},
	}
}

// caseDuplicateAction: a keyless repeat of a mutating tool (destructive,
// or additive: destructiveHint false) with the same arguments, by a caller
// the server can tell (credentials, a session), is DUPLICATE_ACTION, whose
// details carry the request id of the first call's POST; other arguments,
// or a new key (how to repeat on purpose), run. Anonymous callers are not
// guarded: there each repeat runs, and a keyed call is UNAUTHENTICATED.
func caseDuplicateAction() *testCase {
	var sends, notes atomic.Int32
	send := mutating(counting("idem_send_invoice", &sends, func(n int32) (any, error) {
		return map[string]any{"sent": int(n)}, nil
	}), true)
	note := mutating(counting("idem_add_note", &notes, func(n int32) (any, error) {
		return map[string]any{"note": int(n)}, nil
	}), false)
	const inv1, inv2, text = `{"invoice":"inv_1"}`, `{"invoice":"inv_2"}`, `{"text":"berth B7 cleared"}`
	return &testCase{
		name:  "idempotency/a keyless repeat of a mutation is DUPLICATE_ACTION naming the first call",
		tools: []Tool{send, note},
		calls: []call{
			callOf("idem_send_invoice", inv1), again(callOf("idem_send_invoice", inv1)), callOf("idem_send_invoice", inv2),
			again(keyed("idem_send_invoice", inv1, keyInvoice)),
			callOf("idem_add_note", text), again(callOf("idem_add_note", text)),
		},
		check: func(t *testing.T, r *report) {
			if r.anonymous() {
				for _, i := range []int{0, 1, 2, 4, 5} {
					r.succeeded(t, i)
				}
				r.unauthenticated(t, 3)
				assert.Equal(t, int32(3), sends.Load(), "an anonymous caller's repeat runs")
				assert.Equal(t, int32(2), notes.Load(), "an anonymous caller's repeat runs")
				return
			}
			for first, repeat := range map[int]int{0: 1, 4: 5} {
				r.succeeded(t, first)
				p := r.failed(t, repeat)
				assert.Equal(t, toolerr.CodeDuplicateAction, p["code"])
				assert.Equal(t, string(toolerr.CategoryConflict), p["category"])
				assert.Equal(t, false, p["retryable"])
				details := object(p, "details")
				assert.Equal(t, r.exchangeOf(t, first).requestID(), details["first_request_id"],
					"first_request_id is the X-Request-Id of the first call's POST")
				assert.Equal(t, "completed", details["first_status"])
				assert.NotEqual(t, p["request_id"], details["first_request_id"], "the refusal has its own request id")
				r.assertTellsWhereKeysGo(t, repeat)
			}
			r.succeeded(t, 2)
			r.succeeded(t, 3)
			r.fresh(t, 3)
			assert.Equal(t, int32(3), sends.Load(), "the invoice ran once per arguments, and once more with a key")
			assert.Equal(t, int32(1), notes.Load(), "the note ran once")
		},
	}
}
