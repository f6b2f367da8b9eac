package sanitize

import "strings"

// rustBacktraceHeader opens the frames of a Rust panic.
const rustBacktraceHeader = "stack backtrace:"

// rustNote reports whether r is the note a Rust panic ends with: "note:
// run with `RUST_BACKTRACE=1` environment variable to display a backtrace".
func rustNote(r string) bool {
	return strings.HasPrefix(r, "note: ") && strings.Contains(r, "RUST_BACKTRACE")
}

// rustNumberedFrame reports whether r is a numbered frame of a Rust
// backtrace: "0: rust_begin_unwind", "12: <F as FnOnce<A>>::call_once".
func rustNumberedFrame(r string) bool {
	n := digitsLen(r)
	return n > 0 && len(r) > n+2 && r[n] == ':' && (r[n+1] == ' ' || r[n+1] == '\t')
}

// rustHeadline cuts the location out of a Rust panic headline and reports
// whether it found one:
//
//	thread 'main' panicked at src/main.rs:4:5:     → thread 'main' panicked:
//	thread 'main' panicked at 'boom', src/main.rs:4:5 → thread 'main' panicked at 'boom'
func rustHeadline(body string) (string, bool) {
	const at = " panicked at "
	p := strings.Index(body, at)
	if p < 0 {
		return "", false
	}
	q := p + len(at)
	rest := body[q:]
	if strings.HasPrefix(rest, "'") {
		k := strings.LastIndex(rest, "', ")
		if k < 0 {
			return "", false
		}
		n := rustLocation(rest[k+3:])
		if n == 0 {
			return "", false
		}
		return body[:q+k+1] + rest[k+3+n:], true
	}
	n := rustLocation(rest)
	if n == 0 {
		return "", false
	}
	// Keep the colon even when the location ended the line, so that the
	// next line, joined on by collapseSpace, cannot form "panicked at" again.
	return body[:p] + " panicked:" + strings.TrimPrefix(rest[n:], ":"), true
}

// rustLocation returns the length of the "path:line:column" t starts with,
// not counting a ':' after it, or 0.
func rustLocation(t string) int {
	n := strings.IndexByte(t, ' ')
	if n < 0 {
		n = len(t)
	}
	loc := strings.TrimSuffix(t[:n], ":")
	k, ok := pathBeforeLineCol(loc)
	if !ok || k == 0 || strings.Count(loc[k:], ":") != 2 {
		return 0
	}
	return len(loc)
}
