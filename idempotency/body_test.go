package idempotency

import (
	"crypto/sha256"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// patternBody is a request body of n deterministic bytes (not JSON),
// produced as read from a repeating block, so that a large body costs no
// memory in the test. After the n bytes it returns err, or io.EOF when err
// is nil.
type patternBody struct {
	n, off int
	err    error
	block  []byte
}

// patternBlock is the repeating block of a patternBody: a prime length, so
// that its repetitions do not line up with read buffers.
func patternBlock() []byte {
	b := make([]byte, 4093)
	for i := range b {
		b[i] = byte(i*7 + i>>5)
	}
	return b
}

func (p *patternBody) Read(b []byte) (int, error) {
	if p.off >= p.n {
		if p.err != nil {
			return 0, p.err
		}
		return 0, io.EOF
	}
	if p.block == nil {
		p.block = patternBlock()
	}
	block := p.block
	k := 0
	for k < len(b) && p.off < p.n {
		at := p.off % len(block)
		c := copy(b[k:], block[at:min(len(block), at+p.n-p.off)])
		k += c
		p.off += c
	}
	return k, nil
}

// digest is what a handler read: the length, the SHA-256 and the error
// that ended the body (nil for a clean end).
type digest struct {
	n   int64
	sum [sha256.Size]byte
	err error
}

// readDigest reads r to its end.
func readDigest(r io.Reader) digest {
	h := sha256.New()
	n, err := io.Copy(h, r)
	var d digest
	d.n, d.err = n, err
	copy(d.sum[:], h.Sum(nil))
	return d
}

// digestHandler records what it reads and answers 201.
func digestHandler(got *digest, ran *bool) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		*ran = true
		*got = readDigest(r.Body)
		w.WriteHeader(http.StatusCreated)
	})
}

var errConnReset = errors.New("read tcp: connection reset by peer")

// TestMiddlewaresNeverChangeTheBody: whatever its size, and whether or not
// its reading fails, the handler behind DuplicateGuard, or behind Middleware
// without a key, reads exactly the body the client sent. The 50 MB case is
// the reported break (the handler got 1,048,577 bytes less).
func TestMiddlewaresNeverChangeTheBody(t *testing.T) {
	const limit = 64 << 10
	tests := []struct {
		name string
		n    int
		err  error
		opts []Option
	}{
		{"empty", 0, nil, nil},
		{"one byte", 1, nil, nil},
		{"limit-1", limit - 1, nil, []Option{WithMaxBody(limit)}},
		{"limit", limit, nil, []Option{WithMaxBody(limit)}},
		{"limit+1", limit + 1, nil, []Option{WithMaxBody(limit)}},
		{"three limits", 3*limit + 7, nil, []Option{WithMaxBody(limit)}},
		{"50 MB, default limit", 50 << 20, nil, nil},
		{"fails within the limit", 1000, errConnReset, []Option{WithMaxBody(limit)}},
		{"fails past the limit", 2 * limit, errConnReset, []Option{WithMaxBody(limit)}},
	}
	mws := []struct {
		name string
		mw   func(opts ...Option) func(http.Handler) http.Handler
	}{
		{"guard", func(opts ...Option) func(http.Handler) http.Handler { return DuplicateGuard(NewMemoryStore(), opts...) }},
		{"middleware, no key", func(opts ...Option) func(http.Handler) http.Handler { return Middleware(NewMemoryStore(), opts...) }},
	}
	for _, mw := range mws {
		for _, tt := range tests {
			t.Run(mw.name+"/"+tt.name, func(t *testing.T) {
				want := readDigest(&patternBody{n: tt.n, err: tt.err})
				var got digest
				var ran bool
				h := mw.mw(append([]Option{WithLogger(quiet)}, tt.opts...)...)(digestHandler(&got, &ran))
				for _, auth := range []string{"Bearer a", ""} {
					req := httptest.NewRequest("POST", "/tools/upload", &patternBody{n: tt.n, err: tt.err})
					if auth != "" {
						req.Header.Set("Authorization", auth)
					}
					h.ServeHTTP(httptest.NewRecorder(), req)
					require.True(t, ran, "the handler runs")
					assert.Equal(t, want.n, got.n, "bytes read (authorization %q)", auth)
					assert.Equal(t, want.sum, got.sum, "the same bytes (authorization %q)", auth)
					assert.Equal(t, want.err, got.err, "the same end (authorization %q)", auth)
				}
			})
		}
	}
}

// TestMiddlewareKeyedBody: a keyed request's body within the limit reaches
// the handler unchanged; one over it (ours or an outer http.MaxBytesReader)
// is PAYLOAD_TOO_LARGE, one that cannot be read VALIDATION_FAILED: neither
// runs.
func TestMiddlewareKeyedBody(t *testing.T) {
	const limit = 64 << 10
	tests := []struct {
		name   string
		n      int
		err    error
		status int
	}{
		{"within the limit", limit, nil, http.StatusCreated},
		{"over the limit", limit + 1, nil, http.StatusRequestEntityTooLarge},
		{"over an outer limit", limit, &http.MaxBytesError{Limit: 10}, http.StatusRequestEntityTooLarge},
		{"unreadable", 100, errConnReset, http.StatusBadRequest},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got digest
			var ran bool
			h := newMW(NewMemoryStore(), WithMaxBody(limit))(digestHandler(&got, &ran))
			req := httptest.NewRequest("POST", "/tools/upload", &patternBody{n: tt.n, err: tt.err})
			req.Header.Set("Authorization", "Bearer a")
			req.Header.Set("Idempotency-Key", "k-1")
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			assert.Equal(t, tt.status, rec.Code)
			assert.Equal(t, tt.status == http.StatusCreated, ran)
			if ran {
				assert.Equal(t, readDigest(&patternBody{n: tt.n}), got)
			}
		})
	}
}
