package retrygate

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
)

// BenchmarkTransport compares a GET of a small 200 through the Transport
// with the same GET through its base alone, on loopback.
func BenchmarkTransport(b *testing.B) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "text/plain")
		_, _ = io.WriteString(w, "ok: a small body")
	}))
	defer srv.Close()

	newBase := func() *http.Transport {
		base := http.DefaultTransport.(*http.Transport).Clone()
		base.MaxIdleConnsPerHost = 16
		return base
	}
	run := func(b *testing.B, rt http.RoundTripper) {
		c := &http.Client{Transport: rt}
		defer c.CloseIdleConnections()
		b.ReportAllocs()
		for b.Loop() {
			resp, err := c.Get(srv.URL)
			if err != nil {
				b.Fatal(err)
			}
			_, _ = io.Copy(io.Discard, resp.Body)
			_ = resp.Body.Close()
			if resp.StatusCode != http.StatusOK {
				b.Fatalf("status %d", resp.StatusCode)
			}
		}
	}
	b.Run("retrygate", func(b *testing.B) { run(b, Transport(newBase())) })
	b.Run("bare", func(b *testing.B) { run(b, newBase()) })
}
