package classify_test

import (
	"math"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/classify"
)

// delayNow is the fixed "now" of the delay tests: Sunday 2026-11-22 10:00:00 UTC.
var delayNow = time.Date(2026, time.November, 22, 10, 0, 0, 0, time.UTC)

// delayNowUnix is delayNow as Unix seconds.
const delayNowUnix = 1795341600

func delayUnixPlus(delta int64) string { return strconv.FormatInt(delayNowUnix+delta, 10) }

type delayCase struct {
	name   string
	format classify.DelayFormat
	value  string
	max    time.Duration
	want   time.Duration
	ok     bool
}

// delayValid builds a case expecting want with no cap.
func delayValid(f classify.DelayFormat, name, value string, want time.Duration) delayCase {
	return delayCase{name: name, format: f, value: value, want: want, ok: true}
}

// delayCapped builds a case expecting want with cap max.
func delayCapped(f classify.DelayFormat, name, value string, max, want time.Duration) delayCase {
	return delayCase{name: name, format: f, value: value, max: max, want: want, ok: true}
}

// delayAbsent builds a case expecting (0, false), tried both with and without a cap.
func delayAbsent(f classify.DelayFormat, name, value string) delayCase {
	return delayCase{name: name, format: f, value: value}
}

func TestDelayFormatString(t *testing.T) {
	want := map[classify.DelayFormat]string{
		classify.RetryAfter:    "RetryAfter",
		classify.Milliseconds:  "Milliseconds",
		classify.Seconds:       "Seconds",
		classify.EpochSeconds:  "EpochSeconds",
		classify.GoDuration:    "GoDuration",
		classify.ProtoDuration: "ProtoDuration",
		classify.Instant:       "Instant",
		classify.ResetValue:    "ResetValue",
		0:                      "DelayFormat(0)",
		9:                      "DelayFormat(9)",
		-1:                     "DelayFormat(-1)",
	}
	for f, name := range want {
		assert.Equal(t, name, f.String())
	}
	assert.Equal(t, classify.DelayFormat(1), classify.RetryAfter, "formats start at 1 so the zero value is not a format")
	assert.Equal(t, classify.DelayFormat(8), classify.ResetValue)
}

func TestParseDelay(t *testing.T) {
	const (
		ra  = classify.RetryAfter
		ms  = classify.Milliseconds
		sec = classify.Seconds
		ep  = classify.EpochSeconds
		gd  = classify.GoDuration
		pd  = classify.ProtoDuration
		ins = classify.Instant
		rv  = classify.ResetValue
	)
	maxDur := time.Duration(math.MaxInt64)
	long64 := strings.Repeat("0", 63) + "7" // 64 bytes: still within bounds
	long65 := strings.Repeat("0", 64) + "7" // 65 bytes: junk

	cases := []delayCase{
		// RetryAfter: delta-seconds.
		delayValid(ra, "delta", "120", 120*time.Second),
		delayValid(ra, "one", "1", time.Second),
		delayValid(ra, "zero", "0", 0),
		delayValid(ra, "leading zeros", "007", 7*time.Second),
		delayValid(ra, "lenient fraction", "1.5", 1500*time.Millisecond),
		delayValid(ra, "trimmed", " \t120\t ", 120*time.Second),
		delayCapped(ra, "capped", "120", time.Minute, time.Minute),
		delayCapped(ra, "at cap", "60", time.Minute, time.Minute),
		delayCapped(ra, "under cap", "59", time.Minute, 59*time.Second),
		delayCapped(ra, "negative cap means none", "3600", -time.Second, time.Hour),
		delayValid(ra, "largest", "9223372036", 9223372036*time.Second),
		// RetryAfter: HTTP-date in the three forms http.ParseTime accepts.
		delayValid(ra, "IMF-fixdate", "Sun, 22 Nov 2026 10:00:30 GMT", 30*time.Second),
		delayValid(ra, "RFC 850", "Sunday, 22-Nov-26 10:00:30 GMT", 30*time.Second),
		delayValid(ra, "asctime", "Sun Nov 22 10:00:30 2026", 30*time.Second),
		delayValid(ra, "asctime one-digit day", "Wed Dec  2 10:00:00 2026", 10*24*time.Hour),
		delayValid(ra, "IMF-fixdate next day", "Mon, 23 Nov 2026 10:00:00 GMT", 24*time.Hour),
		delayCapped(ra, "date capped", "Mon, 23 Nov 2026 10:00:00 GMT", time.Minute, time.Minute),
		delayAbsent(ra, "date equal to now", "Sun, 22 Nov 2026 10:00:00 GMT"),
		delayAbsent(ra, "date past", "Sun, 22 Nov 2026 09:59:59 GMT"),
		delayAbsent(ra, "RFC 850 past", "Saturday, 21-Nov-26 10:00:30 GMT"),
		delayAbsent(ra, "asctime past", "Sat Nov 21 10:00:30 2026"),
		delayAbsent(ra, "date beyond Duration", "Fri, 31 Dec 9999 23:59:59 GMT"),
		delayAbsent(ra, "date not GMT", "Sun, 22 Nov 2026 10:00:30 PST"),
		delayAbsent(ra, "date garbled", "Sun, 32 Nov 2026 10:00:30 GMT"),
		delayAbsent(ra, "RFC 3339 is not an HTTP-date", "2026-11-22T10:00:30Z"),
		delayAbsent(ra, "empty", ""),
		delayAbsent(ra, "blank", " \t "),
		delayAbsent(ra, "junk", "abc"),
		delayAbsent(ra, "negative", "-1"),
		delayAbsent(ra, "plus", "+120"),
		delayAbsent(ra, "exponent", "1e3"),
		delayAbsent(ra, "hex", "0x10"),
		delayAbsent(ra, "underscore", "1_000"),
		delayAbsent(ra, "dot only", "."),
		delayAbsent(ra, "leading dot", ".5"),
		delayAbsent(ra, "trailing dot", "1."),
		delayAbsent(ra, "two dots", "1.2.3"),
		delayAbsent(ra, "unit suffix", "120s"),
		delayAbsent(ra, "inner space", "1 20"),
		delayAbsent(ra, "newline not trimmed", "120\n"),
		delayAbsent(ra, "NaN", "NaN"),
		delayAbsent(ra, "Inf", "Inf"),
		delayAbsent(ra, "overflow", "9223372037"),
		delayAbsent(ra, "overflow int64", "9223372036854775807"),
		delayAbsent(ra, "overflow digits", "99999999999999999999"),

		// Milliseconds.
		delayValid(ms, "whole", "1500", 1500*time.Millisecond),
		delayValid(ms, "fraction", "1500.5", 1500*time.Millisecond+500*time.Microsecond),
		delayValid(ms, "sub-ms", "0.25", 250*time.Microsecond),
		delayValid(ms, "nanosecond", "0.000001", time.Nanosecond),
		delayValid(ms, "below nanosecond truncates", "0.0000019", time.Nanosecond),
		delayValid(ms, "below nanosecond is zero", "0.0000001", 0),
		delayValid(ms, "zero", "0", 0),
		delayValid(ms, "zero fraction", "0.000", 0),
		delayValid(ms, "trimmed", "\t20 ", 20*time.Millisecond),
		delayValid(ms, "max Duration", "9223372036854.775807", maxDur),
		delayValid(ms, "64 bytes", long64, 7*time.Millisecond),
		delayCapped(ms, "capped", "120000", time.Minute, time.Minute),
		delayCapped(ms, "no cap when zero", "120000", 0, 2*time.Minute),
		delayCapped(ms, "no cap when negative", "120000", -time.Second, 2*time.Minute),
		delayAbsent(ms, "overflow by 1ns", "9223372036854.775808"),
		delayAbsent(ms, "overflow", "9223372036855"),
		delayAbsent(ms, "overflow int64", "9223372036854775807"),
		delayAbsent(ms, "overflow digits", "99999999999999999999"),
		delayAbsent(ms, "65 bytes", long65),
		delayAbsent(ms, "65 bytes with padding", strings.Repeat(" ", 62)+"100"),
		delayAbsent(ms, "empty", ""),
		delayAbsent(ms, "space", " "),
		delayAbsent(ms, "junk", "abc"),
		delayAbsent(ms, "exponent", "1e3"),
		delayAbsent(ms, "negative", "-5"),
		delayAbsent(ms, "negative zero", "-0"),
		delayAbsent(ms, "plus", "+5"),
		delayAbsent(ms, "unit suffix", "5ms"),
		delayAbsent(ms, "NaN", "NaN"),
		delayAbsent(ms, "Inf", "+Inf"),
		delayAbsent(ms, "infinity", "Infinity"),

		// Seconds.
		delayValid(sec, "whole", "30", 30*time.Second),
		delayValid(sec, "fraction", "1.25", 1250*time.Millisecond),
		delayValid(sec, "nanosecond", "0.000000001", time.Nanosecond),
		delayValid(sec, "below nanosecond truncates", "1.0000000019", time.Second+time.Nanosecond),
		delayValid(sec, "zero", "0", 0),
		delayValid(sec, "max Duration", "9223372036.854775807", maxDur),
		delayCapped(sec, "capped", "61", time.Minute, time.Minute),
		delayCapped(sec, "fraction capped", "60.000000001", time.Minute, time.Minute),
		delayAbsent(sec, "overflow by 1ns", "9223372036.854775808"),
		delayAbsent(sec, "overflow", "9223372037"),
		delayAbsent(sec, "overflow int64", "9223372036854775807"),
		delayAbsent(sec, "overflow digits", "99999999999999999999"),
		delayAbsent(sec, "empty", ""),
		delayAbsent(sec, "junk", "abc"),
		delayAbsent(sec, "exponent", "1e3"),
		delayAbsent(sec, "negative", "-1.5"),
		delayAbsent(sec, "plus", "+1"),
		delayAbsent(sec, "NaN", "NaN"),
		delayAbsent(sec, "Inf", "Inf"),
		delayAbsent(sec, "leading dot", ".5"),
		delayAbsent(sec, "comma decimal", "1,5"),

		// EpochSeconds.
		delayValid(ep, "future", delayUnixPlus(30), 30*time.Second),
		delayValid(ep, "one second ahead", delayUnixPlus(1), time.Second),
		delayValid(ep, "fraction", delayUnixPlus(1)+".5", 1500*time.Millisecond),
		delayValid(ep, "fraction within now's second", delayUnixPlus(0)+".25", 250*time.Millisecond),
		delayValid(ep, "year 2262", "9223372035", (9223372035-delayNowUnix)*time.Second),
		delayCapped(ep, "capped", delayUnixPlus(3600), time.Minute, time.Minute),
		delayAbsent(ep, "equal to now", delayUnixPlus(0)),
		delayAbsent(ep, "past", delayUnixPlus(-1)),
		delayAbsent(ep, "zero is 1970", "0"),
		delayAbsent(ep, "GitHub example in the past", "1700000000"),
		delayValid(ep, "past year 2262", "9223372037", (9223372037-delayNowUnix)*time.Second),
		delayValid(ep, "largest delay from now", "11018713636.854775807", time.Duration(math.MaxInt64)),
		delayAbsent(ep, "delay beyond Duration by 1ns", "11018713636.854775808"),
		delayAbsent(ep, "delay beyond Duration", "12000000000"),
		delayAbsent(ep, "overflow int64", "9223372036854775807"),
		delayAbsent(ep, "overflow digits", "99999999999999999999"),
		delayAbsent(ep, "negative", "-"+delayUnixPlus(30)),
		delayAbsent(ep, "plus", "+"+delayUnixPlus(30)),
		delayAbsent(ep, "exponent", "1.8e9"),
		delayAbsent(ep, "junk", "soon"),
		delayAbsent(ep, "empty", ""),
		delayAbsent(ep, "NaN", "NaN"),

		// GoDuration.
		delayValid(gd, "minutes", "6m0s", 6*time.Minute),
		delayValid(gd, "milliseconds", "644ms", 644*time.Millisecond),
		delayValid(gd, "mixed", "1h2m3.5s", time.Hour+2*time.Minute+3500*time.Millisecond),
		delayValid(gd, "small", "20ms", 20*time.Millisecond),
		delayValid(gd, "microseconds", "1.5us", 1500*time.Nanosecond),
		delayValid(gd, "micro sign", "3µs", 3*time.Microsecond),
		delayValid(gd, "bare zero", "0", 0),
		delayValid(gd, "zero seconds", "0s", 0),
		delayValid(gd, "max Duration", "2562047h47m16.854775807s", maxDur),
		delayCapped(gd, "capped", "2h", time.Minute, time.Minute),
		delayAbsent(gd, "negative", "-1s"),
		delayAbsent(gd, "negative zero", "-0s"),
		delayAbsent(gd, "plus", "+1s"),
		delayAbsent(gd, "no unit", "1"),
		delayAbsent(gd, "unknown unit", "1d"),
		delayAbsent(gd, "exponent", "1e3s"),
		delayAbsent(gd, "trailing junk", "1s!"),
		delayAbsent(gd, "overflow", "2562048h"),
		delayAbsent(gd, "empty", ""),
		delayAbsent(gd, "junk", "abc"),
		delayAbsent(gd, "NaN", "NaNs"),

		// ProtoDuration.
		delayValid(pd, "fraction", "2.500s", 2500*time.Millisecond),
		delayValid(pd, "whole", "12s", 12*time.Second),
		delayValid(pd, "half", "0.5s", 500*time.Millisecond),
		delayValid(pd, "zero", "0s", 0),
		delayValid(pd, "nine digits", "0.000000001s", time.Nanosecond),
		delayValid(pd, "max Duration", "9223372036.854775807s", maxDur),
		delayCapped(pd, "capped", "90s", time.Minute, time.Minute),
		delayAbsent(pd, "ten digits", "0.0000000001s"),
		delayAbsent(pd, "s alone", "s"),
		delayAbsent(pd, "leading dot", ".5s"),
		delayAbsent(pd, "trailing dot", "1.s"),
		delayAbsent(pd, "no suffix", "1.5"),
		delayAbsent(pd, "upper-case suffix", "1.5S"),
		delayAbsent(pd, "milliseconds", "1.5ms"),
		delayAbsent(pd, "double suffix", "1ss"),
		delayAbsent(pd, "negative", "-1.5s"),
		delayAbsent(pd, "plus", "+1s"),
		delayAbsent(pd, "exponent", "1e3s"),
		delayAbsent(pd, "proto maximum overflows Duration", "315576000000s"),
		delayAbsent(pd, "overflow by 1ns", "9223372036.854775808s"),
		delayAbsent(pd, "empty", ""),
		delayAbsent(pd, "NaN", "NaNs"),

		// Instant.
		delayValid(ins, "UTC", "2026-11-22T10:00:30Z", 30*time.Second),
		delayValid(ins, "fractional", "2026-11-22T10:00:00.5Z", 500*time.Millisecond),
		delayValid(ins, "nanoseconds", "2026-11-22T10:00:00.000000001Z", time.Nanosecond),
		delayValid(ins, "offset", "2026-11-22T11:00:30+01:00", 30*time.Second),
		delayValid(ins, "negative offset", "2026-11-22T05:01:00-05:00", time.Minute),
		delayCapped(ins, "capped", "2026-11-23T10:00:00Z", time.Minute, time.Minute),
		delayAbsent(ins, "equal to now", "2026-11-22T10:00:00Z"),
		delayAbsent(ins, "past", "2026-11-22T09:59:59.999Z"),
		delayAbsent(ins, "past with offset", "2026-11-22T10:00:30+01:00"),
		delayAbsent(ins, "beyond Duration", "9999-12-31T23:59:59Z"),
		delayAbsent(ins, "space separator", "2026-11-22 10:00:30Z"),
		delayAbsent(ins, "no zone", "2026-11-22T10:00:30"),
		delayAbsent(ins, "date only", "2026-11-23"),
		delayAbsent(ins, "epoch", delayUnixPlus(30)),
		delayAbsent(ins, "HTTP-date", "Sun, 22 Nov 2026 10:00:30 GMT"),
		delayAbsent(ins, "empty", ""),
		delayAbsent(ins, "junk", "abc"),

		// ResetValue: epoch seconds from 1e9 up to 1e11, delta seconds below.
		delayValid(rv, "epoch future", delayUnixPlus(45), 45*time.Second),
		delayValid(rv, "epoch fraction", delayUnixPlus(2)+".5", 2500*time.Millisecond),
		delayValid(rv, "delta", "30", 30*time.Second),
		delayValid(rv, "delta fraction", "1.5", 1500*time.Millisecond),
		delayValid(rv, "delta zero", "0", 0),
		delayValid(rv, "largest delta", "999999999", 999999999*time.Second),
		delayValid(rv, "largest delta fraction", "999999999.5", 999999999*time.Second+500*time.Millisecond),
		delayCapped(rv, "delta capped", "3600", time.Minute, time.Minute),
		delayCapped(rv, "epoch capped", delayUnixPlus(3600), time.Minute, time.Minute),
		delayAbsent(rv, "epoch past", delayUnixPlus(-100)),
		delayAbsent(rv, "epoch equal to now", delayUnixPlus(0)),
		delayAbsent(rv, "smallest epoch is 2001", "1000000000"),
		delayAbsent(rv, "epoch beyond Duration", "99999999999"),
		delayAbsent(rv, "1e11", "100000000000"),
		delayAbsent(rv, "above 1e11", "1700000000000"),
		delayAbsent(rv, "overflow digits", "99999999999999999999"),
		delayAbsent(rv, "negative", "-30"),
		delayAbsent(rv, "plus", "+30"),
		delayAbsent(rv, "exponent", "1e3"),
		delayAbsent(rv, "empty", ""),
		delayAbsent(rv, "junk", "abc"),
		delayAbsent(rv, "NaN", "NaN"),

		// Unknown formats read nothing.
		delayAbsent(0, "zero format", "30"),
		delayAbsent(9, "format past the end", "30"),
		delayAbsent(-1, "negative format", "30"),
	}

	for _, tc := range cases {
		t.Run(tc.format.String()+"/"+tc.name, func(t *testing.T) {
			d, ok := classify.ParseDelay(tc.format, tc.value, delayNow, tc.max)
			require.Equal(t, tc.ok, ok, "ok for %q", tc.value)
			require.Equal(t, tc.want, d, "delay for %q", tc.value)
			if !tc.ok {
				d, ok = classify.ParseDelay(tc.format, tc.value, delayNow, time.Minute)
				assert.False(t, ok, "capped ok for %q", tc.value)
				assert.Equal(t, time.Duration(0), d, "capped delay for %q", tc.value)
			}
		})
	}
}

func TestParseDelayNowZoneAndClock(t *testing.T) {
	// The delay to an absolute instant must not depend on now's location or
	// on a monotonic clock reading.
	tokyo := delayNow.In(time.FixedZone("JST", 9*3600))
	for _, tc := range []struct {
		format classify.DelayFormat
		value  string
	}{
		{classify.RetryAfter, "Sun, 22 Nov 2026 10:00:30 GMT"},
		{classify.EpochSeconds, delayUnixPlus(30)},
		{classify.Instant, "2026-11-22T19:00:30+09:00"},
		{classify.ResetValue, delayUnixPlus(30)},
	} {
		d, ok := classify.ParseDelay(tc.format, tc.value, tokyo, 0)
		require.True(t, ok, "%v %q", tc.format, tc.value)
		assert.Equal(t, 30*time.Second, d, "%v %q", tc.format, tc.value)
	}

	// A real clock reading carries a monotonic component.
	wall := time.Now()
	future := wall.Add(90 * time.Second).UTC().Format(time.RFC3339Nano)
	d, ok := classify.ParseDelay(classify.Instant, future, wall, 0)
	require.True(t, ok)
	assert.Equal(t, 90*time.Second, d)
}

func TestParseDelayFarNow(t *testing.T) {
	// An instant more than ~292 years from now does not fit a Duration.
	ancient := time.Date(1, time.January, 1, 0, 0, 0, 0, time.UTC)
	for _, tc := range []struct {
		format classify.DelayFormat
		value  string
	}{
		{classify.RetryAfter, "Sun, 22 Nov 2026 10:00:30 GMT"},
		{classify.EpochSeconds, delayUnixPlus(30)},
		{classify.Instant, "2026-11-22T10:00:30Z"},
		{classify.ResetValue, delayUnixPlus(30)},
	} {
		d, ok := classify.ParseDelay(tc.format, tc.value, ancient, time.Minute)
		assert.False(t, ok, "%v %q", tc.format, tc.value)
		assert.Equal(t, time.Duration(0), d, "%v %q", tc.format, tc.value)
	}
}

func TestParseDelayFarFutureNow(t *testing.T) {
	// With now in the year 5138 the epoch cut-off of ResetValue at 1e11 is
	// observable: just below it is an epoch, at it the value is absent.
	far := time.Unix(99999999000, 0)
	for _, tc := range []struct {
		format classify.DelayFormat
		value  string
		want   time.Duration
		ok     bool
	}{
		{classify.ResetValue, "99999999999", 999 * time.Second, true},
		{classify.ResetValue, "99999999999.5", 999*time.Second + 500*time.Millisecond, true},
		{classify.ResetValue, "100000000000", 0, false},
		{classify.ResetValue, "1000000000", 0, false},
		{classify.ResetValue, "999999999", 999999999 * time.Second, true},
		{classify.EpochSeconds, "100000000000", 1000 * time.Second, true},
		{classify.EpochSeconds, "1795341630", 0, false},
		{classify.EpochSeconds, "4611686018427387904", 0, false},
		{classify.EpochSeconds, "4611686018427387905", 0, false},
		{classify.EpochSeconds, "9223372036854775807", 0, false},
	} {
		d, ok := classify.ParseDelay(tc.format, tc.value, far, 0)
		assert.Equal(t, tc.ok, ok, "%v %q", tc.format, tc.value)
		assert.Equal(t, tc.want, d, "%v %q", tc.format, tc.value)
	}

	// Epoch seconds are bounded at 1<<62 so that time.Unix cannot overflow.
	edge := time.Unix(1<<62-10, 0)
	d, ok := classify.ParseDelay(classify.EpochSeconds, "4611686018427387904", edge, 0)
	assert.True(t, ok, "1<<62 is still an epoch")
	assert.Equal(t, 10*time.Second, d)
	d, ok = classify.ParseDelay(classify.EpochSeconds, "4611686018427387905", edge, 0)
	assert.False(t, ok, "past 1<<62 is absent")
	assert.Equal(t, time.Duration(0), d)
}
