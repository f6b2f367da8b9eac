package middleware

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"runtime"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// The load test's mix: what each kind of request does and what the client
// must get back.
const (
	loadSuccess = iota
	loadReturned
	loadRawHTML
	loadRawJSON
	loadPanicBefore
	loadPanicAfter
	loadKinds
)

// loadHandler serves every kind of the mix, chosen by the path.
func loadHandler(nginx502 string) http.Handler {
	okBody := strings.Repeat(`{"order":"o-1","status":"shipped"}`, 30)
	mux := http.NewServeMux()
	mux.HandleFunc("/success", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		_, _ = io.WriteString(w, okBody)
	})
	mux.Handle("/returned", Tool("refund", func(w http.ResponseWriter, r *http.Request) error {
		return fmt.Errorf("refund: %w", toolerr.Default().New(toolerr.CodeConflict, "Order o-1 was refunded already."))
	}))
	mux.HandleFunc("/raw-html", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = io.WriteString(w, nginx502)
	})
	mux.HandleFunc("/raw-json", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.Header().Set("Retry-After", "2")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = io.WriteString(w, `{"error":{"message":"Rate limit reached for key sk-proj-AbCdEfGhIjKlMnOpQrStUvWxYz0123456789abcd","type":"requests"}}`)
	})
	mux.HandleFunc("/panic-before", func(w http.ResponseWriter, r *http.Request) {
		panic(errors.New("nil pointer in exporter"))
	})
	mux.HandleFunc("/panic-after", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"rows":[`)
		w.(http.Flusher).Flush()
		panic("exporter crashed mid-stream")
	})
	return New(WithLogger(quiet))(mux)
}

var loadPaths = [loadKinds]string{"/success", "/returned", "/raw-html", "/raw-json", "/panic-before", "/panic-after"}

// checkLoadResponse checks that one request got exactly the response its
// kind calls for.
func checkLoadResponse(kind int, resp *http.Response, body []byte, err error) error {
	if kind == loadPanicAfter {
		if err == nil {
			return errors.New("panic after the first write: the connection should have been aborted")
		}
		return nil
	}
	if err != nil {
		return err
	}
	if kind == loadSuccess {
		if resp.StatusCode != 200 || len(body) != 30*len(`{"order":"o-1","status":"shipped"}`) {
			return fmt.Errorf("success: status %d, %d bytes", resp.StatusCode, len(body))
		}
		return nil
	}
	want := map[int]struct {
		status int
		code   string
	}{
		loadReturned:    {409, toolerr.CodeConflict},
		loadRawHTML:     {503, toolerr.CodeUpstreamUnavailable},
		loadRawJSON:     {429, toolerr.CodeRateLimited},
		loadPanicBefore: {500, toolerr.CodeInternal},
	}[kind]
	if resp.StatusCode != want.status {
		return fmt.Errorf("%s: status %d, want %d", loadPaths[kind], resp.StatusCode, want.status)
	}
	if err := toolerr.Validate(body); err != nil {
		return fmt.Errorf("%s: invalid body: %w", loadPaths[kind], err)
	}
	e, err := toolerr.Parse(body)
	if err != nil {
		return err
	}
	if e.Code != want.code || e.RequestID != resp.Header.Get("X-Request-Id") {
		return fmt.Errorf("%s: code %s request id %q/%q", loadPaths[kind], e.Code, e.RequestID, resp.Header.Get("X-Request-Id"))
	}
	for _, leak := range []string{"<html", "sk-proj-", "nil pointer", "goroutine"} {
		if strings.Contains(string(body), leak) {
			return fmt.Errorf("%s: body leaks %q", loadPaths[kind], leak)
		}
	}
	return nil
}

// TestLoad sends 20,000 requests from 64 concurrent clients over loopback,
// mixing successes, returned errors, raw vendor bodies and panics before and
// after the first write. Every request must get exactly its one well-formed
// response (or, for a panic after the first write, an aborted connection);
// afterwards the goroutines return to their starting count and the heap to
// within a small bound of where it started.
func TestLoad(t *testing.T) {
	const (
		requests = 20_000
		clients  = 64
	)
	baseGoroutines := runtime.NumGoroutine()
	runtime.GC()
	var before runtime.MemStats
	runtime.ReadMemStats(&before)

	srv := httptest.NewServer(loadHandler(fixture(t, "html/nginx_502.html")))
	srv.Config.ErrorLog = nil
	transport := &http.Transport{MaxIdleConns: clients, MaxIdleConnsPerHost: clients}
	client := &http.Client{Transport: transport, Timeout: 30 * time.Second}

	var (
		next     atomic.Int64
		byKind   [loadKinds]atomic.Int64
		failures = make(chan error, 16)
		wg       sync.WaitGroup
	)
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	for range clients {
		wg.Go(func() {
			for {
				i := next.Add(1) - 1
				if i >= requests || ctx.Err() != nil {
					return
				}
				kind := int(i % loadKinds)
				req, err := http.NewRequestWithContext(ctx, "POST", srv.URL+loadPaths[kind], strings.NewReader(`{"q":1}`))
				if err != nil {
					failures <- err
					return
				}
				resp, err := client.Do(req)
				var body []byte
				if err == nil {
					body, err = io.ReadAll(resp.Body)
					resp.Body.Close()
				}
				if err := checkLoadResponse(kind, resp, body, err); err != nil {
					select {
					case failures <- fmt.Errorf("request %d: %w", i, err):
					default:
					}
					cancel()
					return
				}
				byKind[kind].Add(1)
			}
		})
	}
	wg.Wait()
	close(failures)
	for err := range failures {
		t.Error(err)
	}
	total := int64(0)
	for k := range byKind {
		total += byKind[k].Load()
		assert.Positive(t, byKind[k].Load(), loadPaths[k])
	}
	require.EqualValues(t, requests, total, "every request got its response")

	transport.CloseIdleConnections()
	srv.Close()
	// A plain loop: assert.Eventually runs its condition on goroutines of
	// its own, which would be counted.
	deadline := time.Now().Add(10 * time.Second)
	for runtime.NumGoroutine() > baseGoroutines && time.Now().Before(deadline) {
		time.Sleep(20 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > baseGoroutines {
		buf := make([]byte, 1<<20)
		t.Errorf("%d goroutines left, started with %d:\n%s", n, baseGoroutines, buf[:runtime.Stack(buf, true)])
	}

	runtime.GC()
	var after runtime.MemStats
	runtime.ReadMemStats(&after)
	const bound = 8 << 20
	t.Logf("heap in use: %d B before, %d B after; goroutines: %d before, %d after",
		before.HeapAlloc, after.HeapAlloc, baseGoroutines, runtime.NumGoroutine())
	assert.Less(t, int64(after.HeapAlloc)-int64(before.HeapAlloc), int64(bound),
		"heap after the run (%d B) within %d B of before (%d B)", after.HeapAlloc, bound, before.HeapAlloc)
}
