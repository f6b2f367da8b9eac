package sanitize

import (
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// TestCleanPipeline checks properties of the whole pipeline: valid UTF-8,
// the output cap, the truncation mark, and a fixed point.
func TestCleanPipeline(t *testing.T) {
	cases := []struct {
		name, in string
		max      int
	}{
		{"prose", proseText(8 << 10), 2048},
		{"invalid UTF-8", "bad \xff\xfe bytes \xc3 here password=abc\xff123", 2048},
		{"multibyte at the cut", strings.Repeat("é", 3000), 100},
		{"secrets body", secretsBody(), 2048},
		{"secret at the cut", strings.Repeat("a ", 40) + "token=" + strings.Repeat("Zz9", 20), 100},
		{"only space", " \n\t ", 2048},
		{"control bytes", "a\x00b\x1bc\x7fd", 2048},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			s := New(WithMaxOutput(c.max))
			out, rep := s.Clean(c.in)
			assert.True(t, utf8.ValidString(out))
			assert.LessOrEqual(t, len(out), c.max)
			if rep.Count(KindTruncated) > 0 {
				assert.True(t, strings.HasSuffix(out, "…"), out)
			}
			again, _ := s.Clean(out)
			assert.Equal(t, out, again)
		})
	}
}

// TestCleanRepairsUTF8 checks that invalid bytes become U+FFFD and are
// counted, and that a secret next to them is still redacted.
func TestCleanRepairsUTF8(t *testing.T) {
	out, rep := New().Clean("x\xffy password=hunter2\xfe z")
	assert.Equal(t, "x\uFFFDy password=[REDACTED:password] z", out)
	assert.Equal(t, 2, rep.Count(KindInvalidUTF8))
	assert.Equal(t, 1, rep.Count(KindSecret))
}

// TestCleanTruncates checks the cut: at a rune boundary, with the mark.
func TestCleanTruncates(t *testing.T) {
	out, rep := New(WithMaxOutput(20)).Clean(strings.Repeat("ab ", 50))
	assert.Equal(t, "ab ab ab ab ab ab…", out)
	assert.LessOrEqual(t, len(out), 20)
	assert.Positive(t, rep.Count(KindTruncated))
}

// TestCleanSecretsBody checks the benchmark's body: the three secrets go,
// the trace is reduced by the stack stage, and the prose stays.
func TestCleanSecretsBody(t *testing.T) {
	out, rep := New(WithMaxOutput(1 << 20)).Clean(secretsBody())
	assert.Equal(t, 3, rep.Count(KindSecret))
	for _, secret := range []string{"Xk29vLp0qZ", "SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV", "R8nX2kQ7vT4mW9pL3sZ6yB1cD5fG0hJ8aE2u"} {
		assert.NotContains(t, out, secret)
	}
	assert.Contains(t, out, "connection pool exhausted")
	assert.Contains(t, out, proseSentences[3])
}
