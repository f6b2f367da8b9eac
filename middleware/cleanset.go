package middleware

import (
	"hash/maphash"
	"strings"
	"sync/atomic"
)

// cleanSet remembers recent texts the sanitizer returned unchanged, so that
// the same text in the next error (a handler's fixed detail, a route's
// path, a violation's reason: most of what errors carry repeats) is not run
// through the pipeline again.
//
// Only texts that came out of the sanitizer exactly as they went in are
// kept: each is what the middleware sends to clients anyway, so the set
// holds nothing secret, and a hit returns the very text looked up. A text
// the sanitizer changed is never stored, so neither it nor its cleaned form
// outlives the request.
//
// It is a direct-mapped table of atomic pointers: a lookup is one hash, one
// load and one comparison; a store replaces whatever the slot held. Memory
// is bounded by cleanSlots texts of at most maxCleanSetText bytes, each a
// copy of its own. An
// attacker who fills it with texts of its own only evicts: every lookup
// still compares whole texts, so a miss costs the pipeline's run and
// nothing else. Safe for concurrent use.
type cleanSet struct {
	seed  maphash.Seed
	slots [cleanSlots]atomic.Pointer[string]
}

const (
	cleanSlots      = 512 // a power of two
	maxCleanSetText = 256 // longer texts are rare in errors and never stored
)

// newCleanSet returns an empty set with a random hash seed.
func newCleanSet() *cleanSet {
	return &cleanSet{seed: maphash.MakeSeed()}
}

// slot returns the slot s maps to.
func (c *cleanSet) slot(s string) *atomic.Pointer[string] {
	return &c.slots[maphash.String(c.seed, s)&(cleanSlots-1)]
}

// clean returns s as the sanitize function returns it, from the set when s
// is there, else from sanitize, storing s when sanitize left it as it was.
func (c *cleanSet) clean(s string, sanitize func(string) string) string {
	if len(s) > maxCleanSetText || s == "" {
		return sanitize(s)
	}
	slot := c.slot(s)
	if p := slot.Load(); p != nil && *p == s {
		return s
	}
	out := sanitize(s)
	if out == s {
		// A copy of its own: s may be a slice of a larger string (a
		// captured body), which the set must not keep alive. Made here,
		// not as &s, which would move s to the heap on every call.
		kept := new(string)
		*kept = strings.Clone(s)
		slot.Store(kept)
	}
	return out
}
