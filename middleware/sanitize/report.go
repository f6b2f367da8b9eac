package sanitize

import (
	"log/slog"
	"strconv"
	"strings"
)

// Kind names one kind of thing the sanitizer removes.
type Kind int

// The kinds a [Report] counts.
const (
	// KindInputCapped counts bytes dropped past the input cap.
	KindInputCapped Kind = iota
	// KindInvalidUTF8 counts invalid UTF-8 sequences replaced with U+FFFD.
	KindInvalidUTF8
	// KindHTML counts HTML documents reduced to one line of text.
	KindHTML
	// KindStackTrace counts stack traces whose frames were removed.
	KindStackTrace
	// KindStackFrame counts the stack frames removed.
	KindStackFrame
	// KindSecret counts secrets redacted.
	KindSecret
	// KindInternalHost counts internal host names redacted.
	KindInternalHost
	// KindPrivateIP counts private, loopback, link-local, CGNAT and
	// metadata addresses redacted.
	KindPrivateIP
	// KindTruncated counts bytes cut to fit the output cap.
	KindTruncated
	// KindDecoded counts texts decoded from UTF-16 or UTF-32.
	KindDecoded
	// KindInvisible counts NUL bytes and invisible format characters
	// (zero-width space, soft hyphen) removed.
	KindInvisible
	// KindUndecodable counts texts dropped whole because they could not be
	// read as text: what cannot be read cannot be shown to be clean.
	KindUndecodable
	// KindPayment counts card numbers, card security codes, IBANs and
	// social security numbers redacted.
	KindPayment
	// KindPersonalData counts e-mail addresses and phone numbers replaced
	// with tokens ([WithPersonalData]).
	KindPersonalData
	kindCount
)

var kindNames = [kindCount]string{
	"input_capped", "invalid_utf8", "html", "stack_trace", "stack_frame",
	"secret", "internal_host", "private_ip", "truncated",
	"decoded", "invisible", "undecodable", "payment", "personal_data",
}

// String returns the kind's snake_case name.
func (k Kind) String() string {
	if k < 0 || k >= kindCount {
		return "unknown"
	}
	return kindNames[k]
}

// Report counts what one [Sanitizer.Clean] removed, by kind. The zero
// Report means nothing was removed.
type Report struct {
	counts [kindCount]int
}

// Count returns how many of kind k were removed.
func (r Report) Count(k Kind) int {
	if k < 0 || k >= kindCount {
		return 0
	}
	return r.counts[k]
}

// Changed reports whether anything was removed.
func (r Report) Changed() bool {
	return r != Report{}
}

// Redacted reports whether a secret, payment or personal data, an internal
// host or a private address was removed: the text carried something that
// must not leak.
func (r Report) Redacted() bool {
	return r.counts[KindSecret]+r.counts[KindPayment]+r.counts[KindPersonalData]+
		r.counts[KindInternalHost]+r.counts[KindPrivateIP] > 0
}

// String lists the non-zero counts as "kind=n" pairs, or "clean".
func (r Report) String() string {
	var b strings.Builder
	for k, n := range r.counts {
		if n == 0 {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(kindNames[k])
		b.WriteByte('=')
		b.WriteString(strconv.Itoa(n))
	}
	if b.Len() == 0 {
		return "clean"
	}
	return b.String()
}

// LogValue implements slog.LogValuer: a group of the non-zero counts.
func (r Report) LogValue() slog.Value {
	var attrs []slog.Attr
	for k, n := range r.counts {
		if n > 0 {
			attrs = append(attrs, slog.Int(kindNames[k], n))
		}
	}
	return slog.GroupValue(attrs...)
}

// add counts n removals of kind k.
func (r *Report) add(k Kind, n int) {
	if n > 0 {
		r.counts[k] += n
	}
}

// merge adds o's counts to r's.
func (r *Report) merge(o Report) {
	for k, n := range o.counts {
		r.counts[k] += n
	}
}
