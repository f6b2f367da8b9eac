package toolerr

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/internal/reqscope"
)

func TestValidRequestID(t *testing.T) {
	tests := []struct {
		id   string
		want bool
	}{
		{"a", true},
		{"req-1", true},
		{"A.b_c:d-e", true},
		{"4bf92f3577b34da6a3ce929d0e0e4736", true},
		{strings.Repeat("a", MaxIDLen), true},
		{strings.Repeat("a", MaxIDLen+1), false},
		{"", false},
		{"req 1", false},
		{"req\r\nX-Evil: 1", false},
		{"req\n", false},
		{"req\t1", false},
		{`"req"`, false},
		{"req/1", true}, // chi's RequestID middleware makes "host/AbCd012345-000001"
		{"api.internal/Zx8kq2LmPp-000042", true},
		{"req+1", false},
		{"req=1", false},
		{"réq", false},
		{"req\x00", false},
		{"req\x7f", false},
		{"<script>", false},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, ValidRequestID(tc.id), "%q", tc.id)
	}
}

func TestValidTraceID(t *testing.T) {
	tests := []struct {
		id   string
		want bool
	}{
		{"4bf92f3577b34da6a3ce929d0e0e4736", true},
		{"00000000000000000000000000000001", true},
		{"10000000000000000000000000000000", true},
		{"0123456789abcdef0123456789abcdef", true},
		{"00000000000000000000000000000000", false},
		{"4BF92F3577B34DA6A3CE929D0E0E4736", false},
		{"4bf92f3577b34da6a3ce929d0e0e473", false},
		{"4bf92f3577b34da6a3ce929d0e0e47360", false},
		{"4bf92f3577b34da6a3ce929d0e0e473g", false},
		{"4bf92f35-77b3-4da6-a3ce-929d0e0e", false},
		{"", false},
		{" 4bf92f3577b34da6a3ce929d0e0e473", false},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, ValidTraceID(tc.id), "%q", tc.id)
	}
}

// TestNewRequestIDsAreValid: the ids Write makes when a request has none
// are valid request ids.
func TestNewRequestIDsAreValid(t *testing.T) {
	for range 100 {
		id := reqscope.NewRequestID()
		require.True(t, ValidRequestID(id), id)
	}
}

func TestContextIDs(t *testing.T) {
	ctx := context.Background()
	assert.Equal(t, "", RequestID(ctx), "empty without WithRequestID")
	assert.Equal(t, "", TraceID(ctx), "empty without WithTraceID")

	withReq := WithRequestID(ctx, "req-1")
	assert.Equal(t, "req-1", RequestID(withReq))
	assert.Equal(t, "", TraceID(withReq), "the keys are distinct")

	both := WithTraceID(withReq, "4bf92f3577b34da6a3ce929d0e0e4736")
	assert.Equal(t, "req-1", RequestID(both))
	assert.Equal(t, "4bf92f3577b34da6a3ce929d0e0e4736", TraceID(both))
	assert.Equal(t, "", RequestID(WithTraceID(ctx, "x")), "trace id is not a request id")

	// The inner value wins, and the helpers store whatever they get: they
	// do not validate (Write does).
	assert.Equal(t, "req-2", RequestID(WithRequestID(withReq, "req-2")))
	assert.Equal(t, "bad id\r\n", RequestID(WithRequestID(ctx, "bad id\r\n")))

	// A value of another type under an unrelated key is not picked up.
	type otherKey int
	assert.Equal(t, "", RequestID(context.WithValue(ctx, otherKey(0), "req-x")))
}
