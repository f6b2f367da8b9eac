package unmapped

import (
	"context"
	"encoding/json"
	"log/slog"
	"net/http"
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
	f.Fuzz(func(t *testing.T, vendor, vendorCode, header string, status int, body []byte) {
		// The probes are planted between the fuzzed texts; a fuzzed text
		// that holds a probe's mark itself may hold it as no secret (a
		// test card number glued to more digits is an 18-digit number,
		// not a card), so it proves nothing about the planted ones.
		fuzzed := make([]byte, 0, len(vendor)+len(vendorCode)+len(header)+len(body)+3)
		fuzzed = append(append(append(append(append(append(append(fuzzed,
			vendor...), 0), vendorCode...), 0), header...), 0), body...)
		if name, _ := leakprobe.Find(fuzzed); name != "" {
			t.Skipf("the fuzzed text holds the %s's mark itself", name)
		}
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
		if name, mark := leakprobe.Find(b); name != "" {
			t.Fatalf("the %s survived as %q:\n%s", name, mark, b)
		}
	})
}
