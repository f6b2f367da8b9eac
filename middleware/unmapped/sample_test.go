package unmapped

import (
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/middleware/sanitize"
)

// newQuiet returns a sampler on clock that logs nowhere and samples every
// offer (one a minute per pair, a minute between offers in these tests).
func newQuiet(clock *testClock, opts ...Option) *Sampler {
	return New(append([]Option{WithClock(clock.Now), WithLogger(slog.New(slog.DiscardHandler)),
		WithSanitizer(sanitize.New(sanitize.WithHostname("")))}, opts...)...)
}

// offerOne offers in on a new sampler and returns its sample.
func offerOne(t *testing.T, in Response, opts ...Option) Sample {
	t.Helper()
	s := newQuiet(newTestClock(), opts...)
	require.True(t, s.Offer(context.Background(), in))
	got := s.Samples()
	require.Len(t, got, 1)
	return got[0]
}

func TestSampleFields(t *testing.T) {
	clock := newTestClock()
	s := newQuiet(clock)
	require.True(t, s.Offer(context.Background(), Response{
		Vendor: "stripe", Status: 402, Code: "UPSTREAM_UNCLASSIFIED", VendorCode: "card_velocity_exceeded",
		Header: http.Header{
			"Content-Type": {"application/json"}, "Request-Id": {"req_8f2c1a9b3d"}, "Retry-After": {"3"},
			"X-Ms-Request-Id": {"a", "b"}, "Set-Cookie": {"sid=abc"}, "Authorization": {"Bearer x"},
			"Www-Authenticate": {`Bearer realm="api"`}, "X-Custom": {"kept only when allowed"},
		},
		Body: []byte(`{"error":{"code":"card_velocity_exceeded","message":"Too many attempts"}}`),
	}))
	got := s.Samples()
	require.Len(t, got, 1)
	assert.Equal(t, Sample{
		Time: clock.Now(), Vendor: "stripe", Status: 402, Code: "UPSTREAM_UNCLASSIFIED", VendorCode: "card_velocity_exceeded",
		Header: map[string]string{"Content-Type": "application/json", "Request-Id": "req_8f2c1a9b3d", "Retry-After": "3",
			"X-Ms-Request-Id": "a, b"},
		Body:      `{"error":{"code":"card_velocity_exceeded","message":"Too many attempts"}}`,
		BodyBytes: 73,
	}, got[0])
}

func TestSampleHeaderAllowList(t *testing.T) {
	h := http.Header{"X-Custom": {"shown"}, "Set-Cookie": {"sid=abc"}, "Authorization": {"Bearer x"}, "Cookie": {"a=b"}}
	smp := offerOne(t, Response{Header: h}, WithHeaders("x-custom", "set-cookie", "Authorization", "COOKIE"))
	assert.Equal(t, map[string]string{"X-Custom": "shown"}, smp.Header,
		"an added name is kept; the credential headers never are")
	assert.Nil(t, offerOne(t, Response{Header: h}).Header, "X-Custom is not allowed by default")
	assert.Equal(t, map[string]string{"Via": "1, 2, 3, 4"},
		offerOne(t, Response{Header: http.Header{"Via": {"1", "2", "3", "4", "5"}}}).Header, "at most four values")
}

func TestSampleVendorUnknown(t *testing.T) {
	assert.Equal(t, "unknown", offerOne(t, Response{Status: 502}).Vendor)
	long := strings.Repeat("stripe ", 40)
	assert.LessOrEqual(t, len(offerOne(t, Response{Vendor: long}).Vendor), maxVendorKey)
}

func TestSampleBodyCut(t *testing.T) {
	body := strings.Repeat("the vendor said something long ", 100)
	smp := offerOne(t, Response{Body: []byte(body)}, WithBodyBytes(64))
	assert.LessOrEqual(t, len(smp.Body), 64)
	assert.True(t, strings.HasSuffix(smp.Body, "…"), smp.Body)
	assert.True(t, strings.HasPrefix(body, strings.TrimSuffix(smp.Body, "…")), "cut at a word: %q", smp.Body)
	assert.Equal(t, len(body), smp.BodyBytes)

	word := strings.Repeat("é", 200) // one long word of two-byte runes
	smp = offerOne(t, Response{Body: []byte(word)}, WithBodyBytes(64))
	assert.LessOrEqual(t, len(smp.Body), 64)
	assert.Greater(t, len(smp.Body), 32, "one long word is cut at a rune")
	assert.True(t, utf8.ValidString(smp.Body))

	assert.Equal(t, DefaultBodyBytes, New(WithBodyBytes(8)).fields.bodyBytes, "below 16 keeps the default")
}

// TestSampleHTMLBecomesText: a vendor's HTML error page is kept as the
// sanitizer's one line of text.
func TestSampleHTMLBecomesText(t *testing.T) {
	page := `<html><head><title>502 Bad Gateway</title><script>var k="x"</script></head><body><h1>502</h1></body></html>`
	smp := offerOne(t, Response{Body: []byte(page), Status: 502})
	assert.Equal(t, "upstream HTML error page: 502 Bad Gateway", smp.Body)
}

// TestSampleReadsAtMost64KiB: of a long body only the first 64 KiB are
// read, and a secret that the cut runs through is dropped with its word,
// not kept as a fragment no rule recognizes.
func TestSampleReadsAtMost64KiB(t *testing.T) {
	const key = "ghp_R4nd0mT0kenV4lueF0rFuzz1ngAbCdEf0123"
	prefix := strings.Repeat("a ", (MaxRead-20)/2)
	body := prefix + key + " and more"
	require.Greater(t, len(body), MaxRead)
	require.Less(t, len(prefix), MaxRead)
	s := newQuiet(newTestClock(), WithBodyBytes(MaxRead), WithSanitizer(sanitize.New(sanitize.WithHostname(""), sanitize.WithMaxOutput(MaxRead))))
	require.True(t, s.Offer(context.Background(), Response{Body: []byte(body)}))
	got := s.Samples()[0].Body
	assert.NotContains(t, got, "ghp_")
	assert.NotContains(t, got, "R4nd0m")
	assert.True(t, strings.HasSuffix(got, "a"), "the text before the cut word is kept: …%q", got[max(0, len(got)-20):])
}

// TestSampleControlCharactersReplaced: nothing in a sample can drive the
// operator's terminal (escape sequences, the bell) or reorder what it
// shows (bidirectional overrides, which the sanitizer keeps).
func TestSampleControlCharactersReplaced(t *testing.T) {
	smp := offerOne(t, Response{Vendor: "a\x1b[31mb \u202egnp.exe", VendorCode: "x\u2066y\u2069",
		Body: []byte("red \x1b[31malert\x07 \u009b31m \u202egnp.exe")})
	for _, s := range []string{smp.Vendor, smp.VendorCode, smp.Body} {
		for _, c := range []string{"\x1b", "\x07", "\u009b", "\u202e", "\u2066", "\u2069"} {
			assert.NotContains(t, s, c)
		}
		assert.Contains(t, s, "\uFFFD", "%q", s)
	}
	for _, r := range "\x00\x1b\x7f\u0085\u202a\u202e\u2066\u2069" {
		assert.Equal(t, '\uFFFD', visible(r), "%U", r)
	}
	for _, r := range "a é\u200d\u2070" {
		assert.Equal(t, r, visible(r), "%U", r)
	}
}

func TestSamplesNewestFirstAndCopies(t *testing.T) {
	clock := newTestClock()
	s := newQuiet(clock, WithCapacity(3))
	for i := range 5 {
		clock.Advance(time.Minute)
		require.True(t, s.Offer(context.Background(), Response{Status: 500 + i, Header: http.Header{"Server": {"nginx"}}}))
	}
	got := s.Samples()
	require.Len(t, got, 3)
	assert.Equal(t, []int{504, 503, 502}, []int{got[0].Status, got[1].Status, got[2].Status})
	got[0].Header["Server"] = "changed"
	got[0].Body = "changed"
	again := s.Samples()
	assert.Equal(t, "nginx", again[0].Header["Server"], "a caller's change does not reach the ring")
	assert.Empty(t, again[0].Body)
	assert.Equal(t, DefaultCapacity, cap(New(WithCapacity(0)).recent.buf))
	assert.Equal(t, 4096, cap(New(WithCapacity(1<<20)).recent.buf))
}

func TestOfferSuppressedCountInSample(t *testing.T) {
	clock := newTestClock()
	s := newQuiet(clock, WithPairInterval(10*time.Second))
	in := Response{Vendor: "github", Status: 502}
	require.True(t, s.Offer(context.Background(), in))
	for range 7 {
		clock.Advance(time.Second)
		require.False(t, s.Offer(context.Background(), in))
	}
	clock.Advance(3 * time.Second)
	require.True(t, s.Offer(context.Background(), in))
	assert.Equal(t, 7, s.Samples()[0].Suppressed)
	assert.Zero(t, s.Samples()[1].Suppressed)
}
