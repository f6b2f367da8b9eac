package idempotency

import (
	"bufio"
	"crypto/sha256"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// seenBody is what a handler behind a real server read.
type seenBody struct {
	mu      sync.Mutex
	n       int64
	sum     [32]byte
	err     error
	trailer string
	runs    int
}

func (s *seenBody) handler() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		h := sha256.New()
		n, err := io.Copy(h, r.Body)
		s.mu.Lock()
		s.n, s.err, s.trailer = n, err, r.Trailer.Get("X-Checksum")
		copy(s.sum[:], h.Sum(nil))
		s.runs++
		s.mu.Unlock()
		w.WriteHeader(http.StatusCreated)
	})
}

// trailerBody gives data, then sets the request's trailer when it ends.
type trailerBody struct {
	r   io.Reader
	req *http.Request
}

func (b *trailerBody) Read(p []byte) (int, error) {
	n, err := b.r.Read(p)
	if err == io.EOF {
		b.req.Trailer.Set("X-Checksum", "sum-1")
	}
	return n, err
}

// TestAdversarialRealServerChunkedExpectContinue: over a real server, a
// chunked body (no Content-Length) sent only after 100 Continue, with a
// trailer, reaches the handler byte for byte and with its trailer through
// both middlewares: a keyed request within the limit, and the guard with a
// body three times its limit (given back as the bytes read, then the rest).
func TestAdversarialRealServerChunkedExpectContinue(t *testing.T) {
	const limit = 256 << 10
	tests := []struct {
		name string
		mw   func(http.Handler) http.Handler
		key  string
		size int
	}{
		{"keyed middleware", Middleware(NewMemoryStore(), WithLogger(quiet), WithMaxBody(limit)), "k-1", limit},
		{"guard over its limit", DuplicateGuard(NewMemoryStore(), WithLogger(quiet), WithMaxBody(limit)), "", 3*limit + 5},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			seen := &seenBody{}
			srv := httptest.NewServer(tt.mw(seen.handler()))
			defer srv.Close()
			tr := &http.Transport{ExpectContinueTimeout: 10 * time.Second}
			defer tr.CloseIdleConnections()
			data := strings.Repeat("0123456789abcdef", tt.size/16+1)[:tt.size]
			req, err := http.NewRequest("POST", srv.URL+"/tools/upload", nil)
			require.NoError(t, err)
			req.Body = io.NopCloser(&trailerBody{r: strings.NewReader(data), req: req})
			req.ContentLength = -1
			req.Trailer = http.Header{"X-Checksum": nil}
			req.Header.Set("Expect", "100-continue")
			req.Header.Set("Authorization", "Bearer a")
			if tt.key != "" {
				req.Header.Set("Idempotency-Key", tt.key)
			}
			resp, err := tr.RoundTrip(req)
			require.NoError(t, err)
			_ = resp.Body.Close()
			assert.Equal(t, http.StatusCreated, resp.StatusCode)
			seen.mu.Lock()
			defer seen.mu.Unlock()
			assert.Equal(t, 1, seen.runs)
			assert.NoError(t, seen.err)
			assert.EqualValues(t, len(data), seen.n)
			assert.Equal(t, sha256.Sum256([]byte(data)), seen.sum)
			assert.Equal(t, "sum-1", seen.trailer, "the trailer reaches the handler")
		})
	}
}

// TestAdversarialClientGoneMidBody: a keyed request whose client hangs
// up in the middle of its body never runs the handler and leaves no claim
// behind: its retry, sent whole, runs at once (no IDEMPOTENCY_IN_PROGRESS)
// with the whole body.
func TestAdversarialClientGoneMidBody(t *testing.T) {
	seen := &seenBody{}
	srv := httptest.NewServer(newMW(NewMemoryStore())(seen.handler()))
	defer srv.Close()
	body := strings.Repeat("x", 64<<10)
	head := "POST /tools/upload HTTP/1.1\r\nHost: t\r\nAuthorization: Bearer a\r\nIdempotency-Key: k-gone\r\n" +
		"Content-Type: application/octet-stream\r\nContent-Length: %d\r\n\r\n"

	conn, err := net.Dial("tcp", srv.Listener.Addr().String())
	require.NoError(t, err)
	_, err = fmt.Fprintf(conn, head, len(body))
	require.NoError(t, err)
	_, err = io.WriteString(conn, body[:len(body)/2])
	require.NoError(t, err)
	require.NoError(t, conn.Close())
	time.Sleep(50 * time.Millisecond) // the server sees the short body

	conn, err = net.Dial("tcp", srv.Listener.Addr().String())
	require.NoError(t, err)
	defer conn.Close()
	_, err = fmt.Fprintf(conn, head+"%s", len(body), body)
	require.NoError(t, err)
	resp, err := http.ReadResponse(bufio.NewReader(conn), nil)
	require.NoError(t, err)
	_ = resp.Body.Close()
	assert.Equal(t, http.StatusCreated, resp.StatusCode, "the retry runs")
	seen.mu.Lock()
	defer seen.mu.Unlock()
	assert.Equal(t, 1, seen.runs, "the cut request never ran")
	assert.EqualValues(t, len(body), seen.n)
}

// TestAdversarialReadsWithKeysPassThrough: GET and HEAD with a key, even
// one that is invalid or sent twice, are not the middleware's: they run
// every time, are never refused, stored or replayed.
func TestAdversarialReadsWithKeysPassThrough(t *testing.T) {
	var runs atomic.Int32
	h := newMW(NewMemoryStore(), Required())(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		runs.Add(1)
		w.WriteHeader(http.StatusOK)
	}))
	for _, method := range []string{"GET", "HEAD", "OPTIONS"} {
		for _, keys := range [][]string{{"k-1"}, {"k-1"}, {"bad key"}, {"a", "b"}} {
			req := httptest.NewRequest(method, "/tools/x", nil)
			req.Header["Idempotency-Key"] = keys
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			assert.Equal(t, http.StatusOK, rec.Code, "%s %q", method, keys)
			assert.Empty(t, rec.Header().Get(replayedHeader))
		}
	}
	assert.EqualValues(t, 12, runs.Load())
}
