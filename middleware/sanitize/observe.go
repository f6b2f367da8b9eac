package sanitize

// Observed returns a Sanitizer that cleans as s does and calls f with the
// report of every [Sanitizer.Clean], [Sanitizer.CleanText] and
// [Sanitizer.Redact] call that removed something: what a service counts
// as its redactions and truncations by kind. s itself is unchanged, and
// the two share their rules. f runs on the caller's goroutine, so it must
// be quick and safe for concurrent use; it is never told of a clean text.
// An f of nil returns a Sanitizer that tells no one. An observer set
// before is replaced, not chained.
func (s *Sanitizer) Observed(f func(Report)) *Sanitizer {
	c := *s
	c.observe = f
	return &c
}

// report tells the observer of rep when something was removed.
func (s *Sanitizer) report(rep Report) {
	if s.observe != nil && rep.Changed() {
		s.observe(rep)
	}
}
