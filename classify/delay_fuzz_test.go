package classify_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/toolerr/toolerr/classify"
)

// fuzzDelayFormats maps a fuzzed byte onto the defined formats.
var fuzzDelayFormats = [...]classify.DelayFormat{
	classify.RetryAfter,
	classify.Milliseconds,
	classify.Seconds,
	classify.EpochSeconds,
	classify.GoDuration,
	classify.ProtoDuration,
	classify.Instant,
	classify.ResetValue,
}

var fuzzDelayHeaders = [...]string{
	"Retry-After-Ms",
	"X-Ms-Retry-After-Ms",
	"X-Amz-Retry-After",
	"Retry-After",
	"RateLimit-Reset",
	"X-RateLimit-Reset",
	"X-Rate-Limit-Reset",
	"X-RateLimit-Reset-After",
}

// FuzzParseDelay checks that no input panics, that results stay within the
// cap, that absent results are zero, that parsing is deterministic, and that
// the cap only clamps the uncapped result.
func FuzzParseDelay(f *testing.F) {
	f.Add(byte(0), "120")
	f.Add(byte(0), "Sun, 22 Nov 2026 10:00:30 GMT")
	f.Add(byte(1), "1500.5")
	f.Add(byte(3), "1795341630")
	f.Add(byte(4), "1h2m3.5s")
	f.Add(byte(5), "2.500s")
	f.Add(byte(6), "2026-11-22T10:00:30Z")
	f.Add(byte(7), "999999999")

	const limit = 60 * time.Second
	now := delayNow
	f.Fuzz(func(t *testing.T, b byte, value string) {
		format := fuzzDelayFormats[int(b)%len(fuzzDelayFormats)]

		d, ok := classify.ParseDelay(format, value, now, limit)
		checkDelay(t, format.String(), value, d, ok, limit)
		d2, ok2 := classify.ParseDelay(format, value, now, limit)
		if d2 != d || ok2 != ok {
			t.Fatalf("%v %q: not deterministic: (%v, %v) then (%v, %v)", format, value, d, ok, d2, ok2)
		}

		// The cap only clamps: the capped result is min(uncapped, limit).
		raw, rawOK := classify.ParseDelay(format, value, now, 0)
		if rawOK != ok {
			t.Fatalf("%v %q: ok %v with cap, %v without", format, value, ok, rawOK)
		}
		if rawOK && raw < 0 {
			t.Fatalf("%v %q: uncapped delay %v < 0", format, value, raw)
		}
		if !rawOK && raw != 0 {
			t.Fatalf("%v %q: absent but uncapped delay %v", format, value, raw)
		}
		if want := min(raw, limit); ok && d != want {
			t.Fatalf("%v %q: capped delay %v, want %v (uncapped %v)", format, value, d, want, raw)
		}

		h := http.Header{}
		for _, name := range fuzzDelayHeaders {
			h.Set(name, value)
		}
		d, ok = classify.RetryDelay(h, now, limit)
		checkDelay(t, "RetryDelay", value, d, ok, limit)
		wantD, wantOK := firstDelayOf(value, now, limit, classify.Milliseconds, classify.RetryAfter)
		if d != wantD || ok != wantOK {
			t.Fatalf("RetryDelay %q: (%v, %v), want (%v, %v)", value, d, ok, wantD, wantOK)
		}
		d, ok = classify.ResetDelay(h, now, limit)
		checkDelay(t, "ResetDelay", value, d, ok, limit)
		wantD, wantOK = firstDelayOf(value, now, limit, classify.Seconds, classify.ResetValue)
		if d != wantD || ok != wantOK {
			t.Fatalf("ResetDelay %q: (%v, %v), want (%v, %v)", value, d, ok, wantD, wantOK)
		}
	})
}

// firstDelayOf returns the first of formats that reads value, as the header
// families do when every header holds the same value.
func firstDelayOf(value string, now time.Time, limit time.Duration, formats ...classify.DelayFormat) (time.Duration, bool) {
	for _, format := range formats {
		if d, ok := classify.ParseDelay(format, value, now, limit); ok {
			return d, true
		}
	}
	return 0, false
}

func checkDelay(t *testing.T, what, value string, d time.Duration, ok bool, limit time.Duration) {
	t.Helper()
	if ok && (d < 0 || d > limit) {
		t.Fatalf("%s %q: delay %v outside [0, %v]", what, value, d, limit)
	}
	if !ok && d != 0 {
		t.Fatalf("%s %q: absent but delay %v", what, value, d)
	}
}
