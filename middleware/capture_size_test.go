package middleware

import (
	"bytes"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestCaptureBufferIsSizedOnce: a held-back body is buffered in one
// allocation, sized by Content-Length when the response declares one,
// else by its first write, within the cap.
func TestCaptureBufferIsSizedOnce(t *testing.T) {
	m := newHandler([]Option{WithLogger(quiet), WithBodyCap(8 << 10)})
	chunk := bytes.Repeat([]byte("x"), 1000)
	capture := func(contentLength string, writes int) *recorder {
		rec := &recorder{w: httptest.NewRecorder(), m: m}
		if contentLength != "" {
			rec.Header().Set("Content-Length", contentLength)
		}
		rec.WriteHeader(http.StatusBadGateway)
		for range writes {
			_, _ = rec.Write(chunk)
		}
		return rec
	}
	t.Run("declared length", func(t *testing.T) {
		allocs := testing.AllocsPerRun(20, func() { capture("3000", 3) })
		rec := capture("3000", 3)
		assert.Len(t, rec.body, 3000)
		assert.Equal(t, 3000, cap(rec.body))
		base := testing.AllocsPerRun(20, func() { capture("3000", 0) })
		assert.Equal(t, 1.0, allocs-base, "one buffer for three writes")
	})
	t.Run("declared length past the cap", func(t *testing.T) {
		rec := capture("100000", 9)
		assert.Len(t, rec.body, 8<<10)
		assert.Equal(t, 8<<10, cap(rec.body))
		assert.True(t, rec.truncated)
	})
	t.Run("no declared length", func(t *testing.T) {
		rec := capture("", 1)
		assert.Len(t, rec.body, 1000)
		assert.Equal(t, 1000, cap(rec.body), "the first write's length")
	})
	t.Run("a length the body does not keep", func(t *testing.T) {
		rec := capture("10", 2)
		assert.Len(t, rec.body, 2000, "a longer body is still captured, up to the cap")
	})
}
