package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

func TestCollapseAndCut(t *testing.T) {
	tests := []struct {
		name, in string
		max      int
		want     string
		cut      int
	}{
		{"clean text is returned as is", "a b c", 100, "a b c", 0},
		{"empty", "", 100, "", 0},
		{"runs of space, tabs and newlines", "  a \t\n b\r\n\r\nc  ", 100, "a b c", 0},
		{"control characters count as space", "a\x00\x1bb\x7fc", 100, "a b c", 0},
		{"unicode spaces and separators", "a\u00a0\u2028b\u3000\ufeffc", 100, "a b c", 0},
		{"only space", " \n\t ", 100, "", 0},
		{"cut with a mark", "abcdefghijklmnopqrstuvwxyz", 16, "abcdefghijklm…", 13},
		{"cut drops the space before the mark", "abcdefghijkl mnopqrstuvwxyz", 16, "abcdefghijkl…", 15},
		{"cut never splits a rune", "ééééééééééééééé", 16, "éééééé…", 18},
		{"exactly the cap is not cut", strings.Repeat("x", 16), 16, strings.Repeat("x", 16), 0},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, cut := collapseAndCut(tc.in, tc.max)
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.cut, cut)
			assert.LessOrEqual(t, len(got), tc.max)
			assert.True(t, utf8.ValidString(got))
			again, cut2 := collapseAndCut(got, tc.max)
			assert.Equal(t, got, again, "collapsing twice changes nothing")
			assert.Zero(t, cut2)
		})
	}
}

func TestCollapseAndCutDoesNotAllocateForCleanText(t *testing.T) {
	s := strings.Repeat("plain words with single spaces ", 60)
	s = strings.TrimSpace(s)
	allocs := testing.AllocsPerRun(100, func() { _, _ = collapseAndCut(s, len(s)) })
	assert.Zero(t, allocs)
}

func TestReport(t *testing.T) {
	var r Report
	assert.False(t, r.Changed())
	assert.Equal(t, "clean", r.String())
	r.add(KindSecret, 2)
	r.add(KindStackFrame, 0)
	r.add(KindTruncated, 10)
	assert.True(t, r.Changed())
	assert.True(t, r.Redacted())
	assert.Equal(t, 2, r.Count(KindSecret))
	assert.Equal(t, 0, r.Count(Kind(99)))
	assert.Equal(t, "secret=2 truncated=10", r.String())
	assert.Equal(t, "[secret=2 truncated=10]", r.LogValue().String())
	assert.Equal(t, "unknown", Kind(-1).String())
}
