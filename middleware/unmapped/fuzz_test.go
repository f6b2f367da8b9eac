package unmapped

import (
	"bytes"
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
	"slices"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/toolerr/toolerr/internal/leakprobe"
	"github.com/toolerr/toolerr/middleware/sanitize"
)

// FuzzOffer: whatever a vendor sends in its body, headers, code and name,
// the sample of it is within its bounds, valid UTF-8, and holds none of
// the probes planted between the fuzzed texts. Seeds are in
// testdata/fuzz/FuzzOffer.
func FuzzOffer(f *testing.F) {
	f.Add("stripe", "card_declined", "req_123", 402, []byte(`{"error":{"code":"card_declined"}}`))
	f.Add("", "", "", 0, []byte{})
	f.Add("<b>", "\xff\xfe", "\u202e", 502, []byte("<html><title>502</title><script>x</script></html>"))
	// Each offer is a minute after the last, so each is sampled.
	clock := newTestClock()
	tick := func() time.Time { clock.Advance(time.Minute); return clock.Now() }
	s := New(WithClock(tick), WithLogger(slog.New(slog.DiscardHandler)),
		WithSanitizer(sanitize.New(sanitize.WithHostname(""))), WithBodyBytes(128))
	sentence := leakprobe.Sentence()
	own := sanitize.New(sanitize.WithHostname(""))
	f.Fuzz(func(t *testing.T, vendor, vendorCode, header string, status int, body []byte) {
		plant := func(s string) string { return s + " " + sentence + " " + s }
		in := Response{
			Vendor: plant(vendor), Status: status, VendorCode: plant(vendorCode), Code: plant(vendorCode),
			Header: http.Header{"Server": {plant(header)}, "X-Request-Id": {header, plant(header)}, "Set-Cookie": {header}},
			Body:   append(append(append(append([]byte(nil), body...), ' '), sentence...), body...),
		}
		if !s.Offer(context.Background(), in) {
			t.Fatal("an offer a minute after the last was not sampled")
		}
		smp := s.Samples()[0]
		if len(smp.Body) > 128 || len(smp.Vendor) > maxVendorKey || len(smp.VendorCode) > maxVendorCode || len(smp.Code) > maxCode {
			t.Fatalf("a text past its cap: %+v", smp)
		}
		if smp.BodyBytes != len(in.Body) || smp.Status != status {
			t.Fatalf("status %d, body_bytes %d: %+v", status, len(in.Body), smp)
		}
		for _, text := range []string{smp.Vendor, smp.VendorCode, smp.Code, smp.Body} {
			if !utf8.ValidString(text) {
				t.Fatalf("invalid UTF-8: %q", text)
			}
		}
		for name, v := range smp.Header {
			if name != "Server" && name != "X-Request-Id" || len(v) > maxHeader || !utf8.ValidString(v) {
				t.Fatalf("header %s: %q", name, v)
			}
		}
		b, err := json.Marshal(smp)
		if err != nil {
			t.Fatal(err)
		}
		if name, mark := leaked(b, own, vendor, vendorCode, header, string(body)); name != "" {
			t.Fatalf("the %s survived as %q:\n%s", name, mark, b)
		}
	})
}

// leaked returns the first probe a mark of which is in b, and the mark,
// unless one of the fuzzed texts, sanitized on its own, holds the mark
// too (its letters and digits, whatever separates them): the fuzzer wrote
// it, in a form the sanitizer rightly keeps (twelve digits alone, a test
// card number glued to more digits: no card), and it proves nothing of
// the probes planted between the fuzzed texts. "" when nothing leaked.
func leaked(b []byte, san *sanitize.Sanitizer, fuzzed ...string) (name, mark string) {
	var kept [][]byte
	for _, text := range fuzzed {
		kept = append(kept, lettersAndDigits([]byte(san.CleanText(text))))
	}
	for _, p := range leakprobe.Probes() {
		for _, m := range p.Marks {
			if !bytes.Contains(b, []byte(m)) {
				continue
			}
			flat := lettersAndDigits([]byte(m))
			if !slices.ContainsFunc(kept, func(k []byte) bool { return bytes.Contains(k, flat) }) {
				return p.Name, m
			}
		}
	}
	return "", ""
}

// lettersAndDigits returns the ASCII letters and digits of b.
func lettersAndDigits(b []byte) []byte {
	out := make([]byte, 0, len(b))
	for _, c := range b {
		if c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' {
			out = append(out, c)
		}
	}
	return out
}
