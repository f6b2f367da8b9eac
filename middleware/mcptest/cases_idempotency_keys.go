package mcptest

import (
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolerr/toolerr"
)

// caseMalformedKey: a key that is not 1 to 255 printable ASCII characters
// is VALIDATION_FAILED, saying where the key goes, for every caller; the
// key, a secret in it included, is never echoed, and nothing runs.
func caseMalformedKey() *testCase {
	var runs atomic.Int32
	void := mutating(counting("idem_void_label", &runs, func(n int32) (any, error) {
		return map[string]any{"voided": int(n)}, nil
	}), true)
	long := "idem-" + secretStripe + "-" + strings.Repeat("9", 256)
	unprintable := "idem-ключ-" + secretStripe
	const args = `{"label":"L-9"}`
	return &testCase{
		name:  "idempotency/a malformed key is VALIDATION_FAILED, never echoed, and nothing runs",
		tools: []Tool{void},
		calls: []call{keyed("idem_void_label", args, long), again(keyed("idem_void_label", args, unprintable))},
		check: func(t *testing.T, r *report) {
			for i, key := range []string{long, unprintable} {
				p := r.failed(t, i)
				assert.Equal(t, toolerr.CodeValidationFailed, p["code"])
				r.assertTellsWhereKeysGo(t, i)
				r.assertNoEcho(t, i, key, "ключ", strings.Repeat("9", 64))
			}
			assert.Zero(t, runs.Load(), "a call with a malformed key never runs")
		},
	}
}

// craneSchema is the input schema of idem_book_crane.
const craneSchema = `{"type":"object","required":["hours"],"properties":{"hours":{"type":"integer","minimum":1,"maximum":12}}}`

// caseRejectedArgumentsNotKept: a keyed call whose arguments the library
// rejects never ran, so its key is not kept: the corrected call with the
// same key runs (no IDEMPOTENCY_KEY_REUSED), and its retry gets it
// replayed.
func caseRejectedArgumentsNotKept() *testCase {
	var runs atomic.Int32
	crane := mutating(counting("idem_book_crane", &runs, func(n int32) (any, error) {
		return map[string]any{"crane": int(n)}, nil
	}), false)
	crane.InputSchema = json.RawMessage(craneSchema)
	const invalid, valid = `{"hours":40}`, `{"hours":8}`
	return &testCase{
		name:              "idempotency/a keyed call the library rejected is not kept: the corrected call runs",
		libraryValidation: true,
		knownCaller:       true,
		tools:             []Tool{crane},
		calls: []call{keyed("idem_book_crane", invalid, keyCrane), keyed("idem_book_crane", valid, keyCrane),
			again(keyed("idem_book_crane", valid, keyCrane))},
		check: func(t *testing.T, r *report) {
			p := r.failed(t, 0)
			assert.Equal(t, toolerr.CodeValidationFailed, p["code"])
			assert.Equal(t, "/hours", p["field"])
			r.succeeded(t, 1)
			r.fresh(t, 1)
			assert.Equal(t, `{"crane":1}`, r.text(t, 1), "the corrected call ran")
			r.replayed(t, 2, 1)
			assert.Equal(t, int32(1), runs.Load(), "the crane was booked once")
		},
	}
}
