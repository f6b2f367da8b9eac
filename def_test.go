package toolerr

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestValidCode(t *testing.T) {
	tests := []struct {
		code string
		want bool
	}{
		{"A", true},
		{"A1", true},
		{"A_B", true},
		{"NOT_FOUND", true},
		{"HTTP_404_X", true},
		{"A_1", true},
		{strings.Repeat("A", 64), true},
		{strings.Repeat("A", 65), false},
		{"A" + strings.Repeat("_B", 31) + "C", true}, // 64 bytes
		{"A" + strings.Repeat("_B", 32), false},      // 65 bytes
		{"", false},
		{"_A", false},
		{"A_", false},
		{"A__B", false},
		{"1A", false},
		{"a", false},
		{"Not_Found", false},
		{"NOT-FOUND", false},
		{"NOT FOUND", false},
		{"NOT.FOUND", false},
		{"NOT_FOUNDÉ", false},
		{"NOT_FOUND\n", false},
		{"_", false},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, ValidCode(tc.code), "%q (%d bytes)", tc.code, len(tc.code))
	}
}

func TestValidAction(t *testing.T) {
	prefix := ActionUseFallbackPrefix
	tests := []struct {
		action string
		want   bool
	}{
		{"refresh_auth", true},
		{"human_required", true},
		{"read_state_first", true},
		{"use_fallback:search", true},
		{"use_fallback:search.v2/cache-1", true},
		{prefix + strings.Repeat("t", MaxListItemLen-len(prefix)), true},
		{prefix + strings.Repeat("t", MaxListItemLen-len(prefix)+1), false},
		{"use_fallback:", false},
		{"use_fallback:a b", false},
		{`use_fallback:a"b`, false},
		{"use_fallback:a\tb", false},
		{"use_fallback:\x7f", false},
		{"use_fallback:é", false},
		{"use_fallback", false},
		{"USE_FALLBACK:search", false},
		{"REFRESH_AUTH", false},
		{"refresh_auth ", false},
		{"reboot", false},
		{"", false},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, ValidAction(tc.action), "%q", tc.action)
	}
}
