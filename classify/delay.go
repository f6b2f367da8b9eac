package classify

import (
	"math"
	"net/http"
	"strconv"
	"strings"
	"time"

	"github.com/toolerr/toolerr/internal/canonheader"
)

// DelayFormat names one way a service writes how long a client should wait.
// Each format fixes both the syntax of the value and its unit, because the
// same digits ("30", "1700000000") mean different delays in different headers.
type DelayFormat int

const (
	// RetryAfter is the RFC 9110 Retry-After field: either delta-seconds
	// ("120"; leniently also a decimal fraction such as "1.5") or an HTTP-date
	// in any form http.ParseTime accepts (IMF-fixdate, RFC 850, asctime).
	RetryAfter DelayFormat = iota + 1
	// Milliseconds is a plain decimal count of milliseconds ("1500",
	// "1500.5"), as in retry-after-ms (OpenAI, Anthropic),
	// x-ms-retry-after-ms (Azure) and x-amz-retry-after (AWS).
	Milliseconds
	// Seconds is a plain decimal count of seconds, fraction allowed ("30",
	// "1.25"), as in the IETF RateLimit-Reset field and Discord's
	// x-ratelimit-reset-after.
	Seconds
	// EpochSeconds is a Unix time in seconds, fraction allowed
	// ("1700000000"), as in GitHub's x-ratelimit-reset and SendGrid's
	// X-RateLimit-Reset; the delay is the time left until that instant.
	EpochSeconds
	// GoDuration is a Go duration string as time.ParseDuration reads it
	// ("6m0s", "644ms", "1h2m3.5s"), as in OpenAI's
	// x-ratelimit-reset-requests and x-ratelimit-reset-tokens.
	GoDuration
	// ProtoDuration is the protobuf JSON form of google.protobuf.Duration:
	// whole seconds, an optional fraction of one to nine digits, and a
	// trailing "s" ("12s", "2.500s", "0.5s"), as in Google's
	// RetryInfo.retryDelay.
	ProtoDuration
	// Instant is an RFC 3339 timestamp ("2026-11-22T10:00:30Z"), as in
	// Anthropic's anthropic-ratelimit-*-reset headers; the delay is the time
	// left until that instant.
	Instant
	// ResetValue is a numeric x-ratelimit-reset whose unit the vendor does not
	// declare. Values from 1e9 up to (not including) 1e11 are read as Unix
	// seconds, smaller non-negative values as delta seconds, and anything
	// else as absent.
	ResetValue
)

var delayFormatNames = [...]string{
	RetryAfter:    "RetryAfter",
	Milliseconds:  "Milliseconds",
	Seconds:       "Seconds",
	EpochSeconds:  "EpochSeconds",
	GoDuration:    "GoDuration",
	ProtoDuration: "ProtoDuration",
	Instant:       "Instant",
	ResetValue:    "ResetValue",
}

// String returns the format's Go constant name, such as "Milliseconds", for
// test names and logs. An unknown format reads as "DelayFormat(n)".
func (f DelayFormat) String() string {
	if f >= RetryAfter && f <= ResetValue {
		return delayFormatNames[f]
	}
	return "DelayFormat(" + strconv.Itoa(int(f)) + ")"
}

// maxDelayLen bounds the work done on a value: longer values are junk.
const maxDelayLen = 64

// ParseDelay reads value written in format and returns the delay it asks for,
// measured from now and capped at max (max <= 0 means no cap): a delay above
// max returns max with ok true.
//
// Surrounding ASCII spaces and tabs are ignored; a value longer than 64 bytes
// before trimming is junk. Numbers are plain decimals (digits, optionally "."
// and more digits): a sign, an exponent, hex, "NaN" or "Inf" make the value
// junk. GoDuration follows time.ParseDuration except that any sign is junk.
// Fractions finer than a nanosecond are truncated. Zero is a valid delay for the
// relative formats; an absolute format (an HTTP-date, EpochSeconds, Instant,
// ResetValue read as epoch seconds) naming an instant at or before now is
// absent.
//
// ok is false, and the duration 0, when the value is empty, junk, negative,
// overflows time.Duration (including an instant too far from now), or names
// an instant that is already past, and for an unknown format.
func ParseDelay(format DelayFormat, value string, now time.Time, max time.Duration) (d time.Duration, ok bool) {
	if len(value) > maxDelayLen {
		return 0, false
	}
	v := strings.Trim(value, " \t")
	if v == "" {
		return 0, false
	}
	d, ok = parseDelay(format, v, now)
	if !ok || d < 0 { // d < 0 cannot happen; kept as a last guard
		return 0, false
	}
	if max > 0 && d > max {
		d = max
	}
	return d, true
}

// parseDelay does the work of ParseDelay on a trimmed, non-empty value.
func parseDelay(format DelayFormat, v string, now time.Time) (time.Duration, bool) {
	const second = int64(time.Second)
	switch format {
	case RetryAfter:
		if isDigit(v[0]) {
			return relative(v, second)
		}
		t, err := http.ParseTime(v)
		return until(t, err, now)
	case Milliseconds:
		return relative(v, int64(time.Millisecond))
	case Seconds:
		return relative(v, second)
	case EpochSeconds, ResetValue:
		whole, frac, ok := decimal(v, second)
		switch {
		case !ok || format == ResetValue && whole >= 1e11:
			return 0, false
		case format == EpochSeconds || whole >= 1e9:
			return epoch(whole, frac, now)
		}
		ns, ok := nanos(whole, frac, second) // ResetValue below 1e9: delta seconds
		return time.Duration(ns), ok
	case GoDuration:
		if v[0] == '-' || v[0] == '+' {
			return 0, false
		}
		d, err := time.ParseDuration(v)
		return d, err == nil
	case ProtoDuration:
		num, found := strings.CutSuffix(v, "s")
		if _, fracPart, _ := strings.Cut(num, "."); !found || len(fracPart) > 9 {
			return 0, false
		}
		return relative(num, second)
	case Instant:
		t, err := time.Parse(time.RFC3339, v)
		return until(t, err, now)
	}
	return 0, false
}

// relative reads a plain decimal count of unit nanoseconds as a delay.
func relative(s string, unit int64) (time.Duration, bool) {
	whole, frac, ok := decimal(s, unit)
	if !ok {
		return 0, false
	}
	ns, ok := nanos(whole, frac, unit)
	return time.Duration(ns), ok
}

// epoch returns the time left until the Unix time whole seconds plus frac
// nanoseconds. Whole is bounded first so that time.Unix cannot overflow; any
// instant that far off is beyond a Duration from every representable now.
func epoch(whole, frac int64, now time.Time) (time.Duration, bool) {
	if whole > 1<<62 {
		return 0, false
	}
	return until(time.Unix(whole, frac), nil, now)
}

// until returns the time from now to t, absent when err is set, when t is not
// after now, or when the difference does not fit in a time.Duration (Time.Sub
// saturates, so the sum is checked).
func until(t time.Time, err error, now time.Time) (time.Duration, bool) {
	d := t.Sub(now)
	if err != nil || d <= 0 || !now.Add(d).Equal(t) {
		return 0, false
	}
	return d, true
}

// decimal splits a plain decimal ("12", "12.5") into its whole part and its
// fraction expressed in nanoseconds of a unit of unit nanoseconds, truncating
// below one nanosecond. Both sides of a "." need at least one digit.
func decimal(s string, unit int64) (whole, frac int64, ok bool) {
	intPart, fracPart, dot := strings.Cut(s, ".")
	if !allDigits(intPart) || dot && !allDigits(fracPart) {
		return 0, 0, false
	}
	whole, err := strconv.ParseInt(intPart, 10, 64)
	if err != nil {
		return 0, 0, false
	}
	for i, scale := 0, unit/10; i < len(fracPart) && scale > 0; i, scale = i+1, scale/10 {
		frac += int64(fracPart[i]-'0') * scale
	}
	return whole, frac, true
}

// nanos returns whole*unit+frac, or false if that overflows int64.
func nanos(whole, frac, unit int64) (int64, bool) {
	if whole < 0 || frac < 0 || whole > (math.MaxInt64-frac)/unit {
		return 0, false
	}
	return whole*unit + frac, true
}

func allDigits(s string) bool {
	for i := 0; i < len(s); i++ {
		if !isDigit(s[i]) {
			return false
		}
	}
	return s != ""
}

func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// delayHeader pairs a header name with the format its value is written in.
type delayHeader struct {
	name   string
	format DelayFormat
}

var retryHeaders = [...]delayHeader{
	{"Retry-After-Ms", Milliseconds},
	{"X-Ms-Retry-After-Ms", Milliseconds},
	{"X-Amz-Retry-After", Milliseconds},
	{"Retry-After", RetryAfter},
}

// resetHeaders are named in canonical form (see headerValue), which writes
// RateLimit as Ratelimit.
var resetHeaders = [...]delayHeader{
	{"Ratelimit-Reset", Seconds},
	{"X-Ratelimit-Reset", ResetValue},
	{"X-Rate-Limit-Reset", ResetValue},
	{"X-Ratelimit-Reset-After", Seconds},
}

// RetryDelay reads the retry-after family of response headers, most precise
// first: Retry-After-Ms (Milliseconds; OpenAI, Anthropic), X-Ms-Retry-After-Ms
// (Milliseconds; Azure), X-Amz-Retry-After (Milliseconds; AWS), then
// Retry-After (RetryAfter). The first header that parses wins, zero included;
// one that is present but junk, negative or past is skipped. The delay is
// measured from now and capped at max as in ParseDelay. Only the first value
// of each header is read.
func RetryDelay(h http.Header, now time.Time, max time.Duration) (time.Duration, bool) {
	return firstDelay(h, retryHeaders[:], now, max)
}

// ResetDelay reads the rate-limit reset family of response headers:
// RateLimit-Reset (Seconds; IETF draft), X-RateLimit-Reset (ResetValue;
// GitHub, SendGrid and others), X-Rate-Limit-Reset (ResetValue) and
// X-RateLimit-Reset-After (Seconds; Discord), in that order; the first that
// parses wins. Some vendors send these headers on every response, so call
// ResetDelay only for a response already known to be a rate limit, and
// prefer RetryDelay when it reports a delay. The delay is measured from now
// and capped at max as in ParseDelay.
func ResetDelay(h http.Header, now time.Time, max time.Duration) (time.Duration, bool) {
	return firstDelay(h, resetHeaders[:], now, max)
}

func firstDelay(h http.Header, headers []delayHeader, now time.Time, max time.Duration) (time.Duration, bool) {
	for _, dh := range headers {
		if v := canonheader.Value(h, dh.name); v != "" {
			if d, ok := ParseDelay(dh.format, v, now, max); ok {
				return d, true
			}
		}
	}
	return 0, false
}
