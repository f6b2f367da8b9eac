package translate

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestEndAtWord(t *testing.T) {
	tests := []struct {
		s    string
		n    int
		want string
	}{
		{"abc def", 10, "abc def"},
		{"abc def", 7, "abc def"},
		{"abc def", 3, "abc"},
		{"abc def", 4, "abc"},
		{"abc def", 5, "abc"},
		{"abc def", 6, "abc"},
		{"abcdef", 3, ""},
		{"abc\tdef", 5, "abc"},
		{"abc", 0, ""},
		{"abc", -1, ""},
	}
	for _, tc := range tests {
		assert.Equal(t, tc.want, endAtWord(tc.s, tc.n), "endAtWord(%q, %d)", tc.s, tc.n)
		assert.Equal(t, tc.want, string(endAtWord([]byte(tc.s), tc.n)))
	}
	assert.Equal(t, "a b", dropPartialWord("a b cd"))
	assert.Equal(t, "", dropPartialWord("abcd"))
}

// token is a GitHub token format the sanitizer redacts only whole.
const token = "ghp_R4nd0mT0kenV4lueF0rFuzz1ngAbCdEf0123"

// TestNoCutLeavesATokenFragment: wherever a cap falls inside a token, no
// fragment of it is left for the sanitizer to miss, including when invalid
// bytes before it shrink or grow when repaired (the FuzzCapturedResponse
// finding: a 403 body of digits and invalid bytes followed by a token).
func TestNoCutLeavesATokenFragment(t *testing.T) {
	prefixes := []string{
		strings.Repeat("0", 150),
		strings.Repeat("0\xed", 90),
		strings.Repeat("\xff", 700) + " x",
		strings.Repeat("é", 80),
		strings.Repeat("word ", 3270) + "w",
	}
	set := mustSet(t)
	for _, p := range prefixes {
		for shift := 0; shift < len(token)+8; shift += 3 {
			body := p + strings.Repeat("1", shift) + " token " + token + " tail"
			check := func(where, got string) {
				for n := 8; n < len(token); n++ {
					if strings.Contains(got, token[:n]) && !strings.Contains(got, token) {
						t.Fatalf("%s: a %d-byte fragment of the token survived a cut:\n%q", where, n, got)
					}
				}
			}
			check("first line", gwFirstLine([]byte(body)))
			check("element", gwElement([]byte("<title>"+body+"</title>"), "title"))
			check("element without end", gwElement([]byte("<title>"+body), "title"))
			check("cut", gwCut(strings.ToValidUTF8(body, "\uFFFD"), jsonTextMax))
			// A body cut at the capture cap ends inside the token.
			for _, capAt := range []int{len(p) + shift + 10, len(p) + shift + 20} {
				if capAt > len(body) {
					continue
				}
				raw := &Raw{Status: 403, Header: http.Header{"Content-Type": {"text/plain"}}, Body: []byte(body[:capAt]), Truncated: true}
				o, ok := set.Translate(raw)
				assert.True(t, ok)
				check("truncated body", o.Message)
			}
		}
	}
}

func mustSet(t *testing.T) *Set {
	t.Helper()
	s, err := NewSet(nil)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
