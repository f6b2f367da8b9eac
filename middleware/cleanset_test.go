package middleware

import (
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"unsafe"

	"github.com/stretchr/testify/assert"

	"github.com/toolerr/toolerr/middleware/sanitize"
)

// countingSanitizer redacts "secret" and counts its runs.
type countingSanitizer struct{ runs atomic.Int64 }

func (c *countingSanitizer) clean(s string) string {
	c.runs.Add(1)
	return strings.ReplaceAll(s, "secret", "[REDACTED]")
}

func TestCleanSetSkipsTheSanitizerForAKnownCleanText(t *testing.T) {
	set, san := newCleanSet(), &countingSanitizer{}
	for range 3 {
		assert.Equal(t, "limit must be at most 100", set.clean("limit must be at most 100", san.clean))
	}
	assert.Equal(t, int64(1), san.runs.Load(), "a clean text is sanitized once, then found")
}

func TestCleanSetNeverKeepsATextTheSanitizerChanged(t *testing.T) {
	set, san := newCleanSet(), &countingSanitizer{}
	for range 3 {
		assert.Equal(t, "token [REDACTED]-42", set.clean("token secret-42", san.clean))
	}
	assert.Equal(t, int64(3), san.runs.Load(), "a changed text runs the sanitizer every time")
	for i := range set.slots {
		if p := set.slots[i].Load(); p != nil {
			assert.NotContains(t, *p, "secret", "slot %d keeps a text the sanitizer changed", i)
		}
	}
}

func TestCleanSetDoesNotKeepLongOrEmptyTexts(t *testing.T) {
	set, san := newCleanSet(), &countingSanitizer{}
	long := strings.Repeat("a", maxCleanSetText+1)
	set.clean(long, san.clean)
	set.clean(long, san.clean)
	set.clean("", san.clean)
	assert.Equal(t, int64(3), san.runs.Load())
	for i := range set.slots {
		assert.Nil(t, set.slots[i].Load())
	}
}

// TestCleanSetUnderContention has goroutines clean texts that collide on
// few slots, half of them holding a secret: every answer must be the
// sanitizer's, whatever another goroutine stored meanwhile (run with -race).
func TestCleanSetUnderContention(t *testing.T) {
	set, san := newCleanSet(), &countingSanitizer{}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for i := range 5000 {
				s := fmt.Sprintf("text %d of %d", i%(3*cleanSlots), g%2)
				if i%2 == 1 {
					s += " secret"
				}
				if got, want := set.clean(s, san.clean), san.clean(s); got != want {
					t.Errorf("clean(%q) = %q, want %q", s, got, want)
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestTextCleanerCachesOnlyWhatItSendsOut runs the real sanitizer: a
// route path repeats and is found again; a detail with a key is redacted
// on every call and its raw form is in no slot.
func TestTextCleanerCachesOnlyWhatItSendsOut(t *testing.T) {
	c := newTextCleaner(sanitize.New(), nil)
	path := "/tools/search_orders"
	assert.Equal(t, path, c.clean(path))
	assert.Equal(t, path, *c.recent.slot(path).Load(), "the path is kept after its first error")
	key := "sk_live_" + strings.Repeat("4eC39HqLyjWDarjtT1zdp7dc", 2)
	detail := "card declined for " + key
	for range 2 {
		assert.NotContains(t, c.clean(detail), key)
	}
	for i := range c.recent.slots {
		if p := c.recent.slots[i].Load(); p != nil {
			assert.NotContains(t, *p, key)
		}
	}
}

// TestCleanSetKeepsACopy: a text that is a slice of a larger string (a
// captured body) is kept as a copy of its own, so the set never keeps the
// larger string alive.
func TestCleanSetKeepsACopy(t *testing.T) {
	set, san := newCleanSet(), &countingSanitizer{}
	body := strings.Repeat("x", 1<<16) + "limit must be at most 100"
	text := body[1<<16:]
	set.clean(text, san.clean)
	p := set.slot(text).Load()
	if p == nil || *p != text {
		t.Fatal("the clean text is not kept")
	}
	if unsafe.StringData(*p) == unsafe.StringData(text) {
		t.Fatal("the set keeps a slice of the caller's string, not a copy")
	}
}
