package translate

import (
	"net/http"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolerr/toolerr/internal/textcut"
)

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
			check("first line", firstTextLine([]byte(body)))
			check("element", pageElement([]byte("<title>"+body+"</title>"), "title"))
			check("element without end", pageElement([]byte("<title>"+body), "title"))
			check("cut", trimAtWord(strings.ToValidUTF8(body, "\uFFFD"), jsonTextMax))
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

// cardDigits is a card number's digits; cardGroups finds numbers written
// in groups.
var (
	cardDigits = "4242424242424242"
	cardGroups = regexp.MustCompile(`[0-9]+(?:[ \t-]+[0-9]+)*`)
)

// cardFragment returns the first number in s that holds more than the
// first six digits of the card but not all of it, or "".
func cardFragment(s string) string {
	for _, m := range cardGroups.FindAllString(s, -1) {
		d := strings.Map(func(r rune) rune {
			if r >= '0' && r <= '9' {
				return r
			}
			return -1
		}, m)
		if len(d) > 6 && len(d) < len(cardDigits) && strings.HasPrefix(cardDigits, d) {
			return m
		}
	}
	return ""
}

// TestNoCutLeavesCardDigits: wherever a cut falls inside a card number
// written in groups, the groups before the cut go with the partial word,
// so that no first seven to fifteen digits of it stay: the sanitizer
// masks a whole card number, and cannot know a fragment for one.
func TestNoCutLeavesCardDigits(t *testing.T) {
	set := mustSet(t)
	for _, sep := range []string{" ", "-", "  "} {
		card := strings.Join([]string{"4242", "4242", "4242", "4242"}, sep)
		for shift := 0; shift < 200; shift++ {
			body := strings.Repeat("w", shift%7) + strings.Repeat(" word", shift/5) + " card " + card + " declined"
			for _, n := range []int{pageMessageMax, jsonTextMax} {
				for at := 0; at < len(body); at++ {
					if got := textcut.AtWord(body, at); cardFragment(got) != "" {
						t.Fatalf("textcut.AtWord(%q, %d) = %q keeps %q", body, at, got, cardFragment(got))
					}
				}
				if got := trimAtWord(body, n); cardFragment(got) != "" {
					t.Fatalf("trimAtWord(%q, %d) = %q", body, n, got)
				}
			}
			for _, n := range []int{40, 50, 60} {
				if got := cutText(body, n); cardFragment(got) != "" {
					t.Fatalf("cutText(%q, %d) = %q", body, n, got)
				}
			}
			if got := firstTextLine([]byte(strings.Repeat("x ", 80) + body)); cardFragment(got) != "" {
				t.Fatalf("first line %q", got)
			}
			for capAt := len(body) - len(card) - 10; capAt < len(body); capAt++ {
				if capAt <= 0 {
					continue
				}
				raw := &Raw{Status: 402, Header: http.Header{"Content-Type": {"text/plain"}}, Body: []byte(body[:capAt]), Truncated: true}
				if o, ok := set.Translate(raw); ok && cardFragment(o.Message) != "" {
					t.Fatalf("a body cut at %d keeps %q: %q", capAt, cardFragment(o.Message), o.Message)
				}
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
