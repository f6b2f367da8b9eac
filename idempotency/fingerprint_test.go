package idempotency

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// The break as reported: two transfers to accounts 2^60+1 and 2^60, whose
// nearest doubles are the same.
const (
	transferA = `{"to_account":1152921504606846977,"amount_minor":500}`
	transferB = `{"to_account":1152921504606846976,"amount_minor":500}`
)

// TestFingerprintNumbers: the default fingerprint tells distinct numbers
// apart and keeps the spellings of one number together.
func TestFingerprintNumbers(t *testing.T) {
	tests := []struct {
		name, a, b string
		same       bool
	}{
		{"2^60 neighbours", transferA, transferB, false},
		{"2^53 neighbours", `{"n":9007199254740993}`, `{"n":9007199254740992}`, false},
		{"beyond 17 digits", `{"n":0.10000000000000000001}`, `{"n":0.1}`, false},
		{"beyond a double", `{"n":1e400}`, `{"n":1e401}`, false},
		{"below a double", `{"n":1e-400}`, `{"n":0}`, false},
		{"1, 1.0, 1e0", `{"n":[1,1.0,1e0]}`, `{"n":[10e-1,0.1e1,1]}`, true},
		{"member order and exponent spelling", `{"b":1152921504606846977,"a":1}`, `{"a":1.0,"b":1.152921504606846977e18}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			fa := defaultFingerprint("POST", "/tools/transfer", []byte(tt.a))
			fb := defaultFingerprint("POST", "/tools/transfer", []byte(tt.b))
			assert.Equal(t, tt.same, fa == fb)
		})
	}
}

// TestDistinctNumbersAreDistinctRequests: through the middleware, the same
// key with the other account is IDEMPOTENCY_KEY_REUSED, never a replay of
// the first transfer.
func TestDistinctNumbersAreDistinctRequests(t *testing.T) {
	tool := &labelTool{}
	h := newMW(NewMemoryStore())(tool)
	require.Equal(t, 201, call(h, "transfer-1", "Bearer a", transferA).Code)
	second := call(h, "transfer-1", "Bearer a", transferB)
	assert.Equal(t, 422, second.Code)
	assert.Empty(t, second.Header().Get("Idempotent-Replayed"), "never a replay of the other transfer")
	assert.Equal(t, toolerr.CodeIdempotencyKeyReused, code(t, second))
	again := call(h, "transfer-1", "Bearer a", `{"amount_minor":500,"to_account":1152921504606846977}`)
	assert.Equal(t, "true", again.Header().Get("Idempotent-Replayed"), "a retry of the first, respelled, replays")
	assert.EqualValues(t, 1, tool.runs.Load())
}

// TestGuardTellsDistinctNumbersApart: DuplicateGuard runs the transfer to
// the other account, and still blocks the identical one.
func TestGuardTellsDistinctNumbersApart(t *testing.T) {
	h, runs := newGuard(NewMemoryStore())
	require.Equal(t, 201, call(h, "", "Bearer a", transferA).Code)
	assert.Equal(t, 201, call(h, "", "Bearer a", transferB).Code, "another account is another call")
	assert.Equal(t, 409, call(h, "", "Bearer a", transferA).Code, "the identical call is blocked")
	assert.EqualValues(t, 2, runs.Load())
}
