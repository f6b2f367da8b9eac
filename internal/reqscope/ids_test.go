package reqscope

import (
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestNewRequestID(t *testing.T) {
	seen := map[string]bool{}
	for range 100 {
		id := NewRequestID()
		require.Len(t, id, RequestIDLen)
		for _, b := range []byte(id) {
			require.True(t, (b >= '0' && b <= '9') || (b >= 'a' && b <= 'f'), "lower-case hex only: %q", id)
		}
		assert.False(t, seen[id], "ids repeat: %s", id)
		seen[id] = true
	}
	assert.NotEqual(t, NewRequestID(), NewRequestID())
}

func TestAppendRequestID(t *testing.T) {
	var buf [RequestIDLen]byte
	got := AppendRequestID(buf[:0])
	require.Len(t, got, RequestIDLen)
	assert.Same(t, &buf[0], &got[0], "appended in the caller's memory")
	assert.Equal(t, "x-", string(AppendRequestID([]byte("x-"))[:2]), "appended after what dst holds")
}
