package idempotency

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// keyedRequest builds a keyed POST for principal "Bearer a".
func keyedRequest(ctx context.Context, key, body string) *http.Request {
	req := httptest.NewRequest("POST", "/tools/stream_report", strings.NewReader(body)).WithContext(ctx)
	req.Header.Set("Idempotency-Key", key)
	req.Header.Set("Authorization", "Bearer a")
	return req
}

// TestAdversarialStreamedFlushAndControllerReplay: a response streamed
// with Flush through http.ResponseController over a real server reaches
// the first client chunk by chunk, is stored whole and replayed byte for
// byte, headers included, to the same principal only.
func TestAdversarialStreamedFlushAndControllerReplay(t *testing.T) {
	var runs atomic.Int32
	srv := httptest.NewServer(newMW(NewMemoryStore())(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		runs.Add(1)
		rc := http.NewResponseController(w)
		w.Header().Set("Content-Type", "text/event-stream")
		w.Header().Set("X-Secret", "not replayed")
		assert.NoError(t, rc.SetWriteDeadline(time.Now().Add(10*time.Second)), "deadlines reach the connection")
		for i := range 3 {
			_, _ = io.WriteString(w, "data: "+strings.Repeat(string(rune('a'+i)), 1000)+"\n\n")
			assert.NoError(t, rc.Flush())
		}
	})))
	defer srv.Close()
	send := func(auth string) (*http.Response, string) {
		req, err := http.NewRequest("POST", srv.URL+"/tools/stream", strings.NewReader(`{"q":1}`))
		require.NoError(t, err)
		req.Header.Set("Idempotency-Key", "k-sse")
		req.Header.Set("Authorization", auth)
		resp, err := srv.Client().Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, err := io.ReadAll(resp.Body)
		require.NoError(t, err)
		return resp, string(b)
	}
	first, firstBody := send("Bearer a")
	assert.Equal(t, []string{"chunked"}, first.TransferEncoding, "flushed: streamed, not buffered")
	again, againBody := send("Bearer a")
	assert.Equal(t, firstBody, againBody)
	assert.Equal(t, "true", again.Header.Get(replayedHeader))
	assert.Equal(t, "text/event-stream", again.Header.Get("Content-Type"))
	assert.Empty(t, again.Header.Get("X-Secret"))
	other, otherBody := send("Bearer b")
	assert.Empty(t, other.Header.Get(replayedHeader), "another principal runs its own call")
	assert.Equal(t, firstBody, otherBody)
	assert.EqualValues(t, 2, runs.Load())
}

// TestAdversarialHijackThroughControllerIsNotStored: a handler that takes
// the connection over with http.ResponseController gets it (the tee does
// not hide Hijack), and nothing is stored: the retry runs and is not
// answered with a replay of bytes the middleware never saw.
func TestAdversarialHijackThroughControllerIsNotStored(t *testing.T) {
	var runs atomic.Int32
	served := make(chan struct{}, 2) // the middleware returned, its bookkeeping done
	mw := newMW(NewMemoryStore())(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if runs.Add(1) == 1 {
			conn, brw, err := http.NewResponseController(w).Hijack()
			if !assert.NoError(t, err) {
				return
			}
			defer conn.Close()
			_, _ = brw.WriteString("HTTP/1.1 202 Accepted\r\nContent-Length: 8\r\nConnection: close\r\n\r\nhijacked")
			_ = brw.Flush()
			return
		}
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, "second")
	}))
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mw.ServeHTTP(w, r)
		served <- struct{}{}
	}))
	defer srv.Close()
	send := func() (int, string) {
		req, err := http.NewRequest("POST", srv.URL+"/tools/ws", strings.NewReader(`{}`))
		require.NoError(t, err)
		req.Header.Set("Idempotency-Key", "k-hj")
		req.Header.Set("Authorization", "Bearer a")
		resp, err := srv.Client().Do(req)
		require.NoError(t, err)
		defer resp.Body.Close()
		b, _ := io.ReadAll(bufio.NewReader(resp.Body))
		return resp.StatusCode, string(b)
	}
	status, body := send()
	assert.Equal(t, 202, status)
	assert.Equal(t, "hijacked", body)
	<-served
	status, body = send()
	assert.Equal(t, 201, status)
	assert.Equal(t, "second", body)
	assert.EqualValues(t, 2, runs.Load())
}

// TestAdversarialLateCompleteAfterLeaseIsFenced: the first request runs
// past its lease; a retry then claims the key and runs (documented at
// WithLease). When the first finally answers, its Complete is fenced off:
// later retries replay the second run's response, never the first's.
func TestAdversarialLateCompleteAfterLeaseIsFenced(t *testing.T) {
	const lease = 250 * time.Millisecond
	var runs atomic.Int32
	secondDone := make(chan struct{})
	h := newMW(NewMemoryStore(), WithLease(lease))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		n := runs.Add(1)
		if n == 1 {
			<-secondDone // runs past its lease
		}
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, map[int32]string{1: "first", 2: "second"}[n])
	}))
	firstDone := make(chan *httptest.ResponseRecorder)
	go func() {
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, keyedRequest(context.Background(), "k-lease", `{}`))
		firstDone <- rec
	}()
	require.Eventually(t, func() bool { return runs.Load() == 1 }, time.Second, time.Millisecond)
	busy := httptest.NewRecorder()
	h.ServeHTTP(busy, keyedRequest(context.Background(), "k-lease", `{}`))
	assert.Equal(t, http.StatusConflict, busy.Code, "within the lease: in progress")

	time.Sleep(2 * lease)
	second := httptest.NewRecorder()
	h.ServeHTTP(second, keyedRequest(context.Background(), "k-lease", `{}`))
	assert.Equal(t, "second", second.Body.String(), "the lease lapsed: the retry runs")
	close(secondDone)
	assert.Equal(t, "first", (<-firstDone).Body.String())

	replay := httptest.NewRecorder()
	h.ServeHTTP(replay, keyedRequest(context.Background(), "k-lease", `{}`))
	assert.Equal(t, "second", replay.Body.String(), "the late first Complete must not overwrite the second")
	assert.Equal(t, "true", replay.Header().Get(replayedHeader))
	assert.EqualValues(t, 2, runs.Load())
}
