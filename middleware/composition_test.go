package middleware

import (
	"compress/gzip"
	"context"
	"io"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/go-chi/chi/v5"
	chimw "github.com/go-chi/chi/v5/middleware"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/docpage"
)

// The composition matrix: toolerr mounted with chi's usual middleware,
// outermost (first in r.Use) and innermost (last), against handlers that
// fail locally. A local failure never becomes an upstream one.

// chiStack returns a chi router with toolerr and mws mounted in the order
// the case asks, and the routes the matrix calls.
func chiStack(outermost bool, hold <-chan struct{}, mws ...func(http.Handler) http.Handler) *chi.Mux {
	r := chi.NewRouter()
	if outermost {
		r.Use(New(WithLogger(quiet)))
		r.Use(mws...)
	} else {
		r.Use(mws...)
		r.Use(New(WithLogger(quiet)))
	}
	r.Get("/tools/panic", func(http.ResponseWriter, *http.Request) { panic("nil map write in refund") })
	r.Get("/tools/slow", func(w http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-time.After(5 * time.Second):
		}
	})
	r.Post("/tools/slow_tool", ToolFunc("slow_tool", func(w http.ResponseWriter, r *http.Request) error {
		<-r.Context().Done()
		return r.Context().Err()
	}))
	r.Post("/tools/upload", ToolFunc("upload", func(w http.ResponseWriter, r *http.Request) error {
		_, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 16))
		return err
	}))
	r.Post("/tools/upload_raw", func(w http.ResponseWriter, r *http.Request) {
		if _, err := io.ReadAll(http.MaxBytesReader(w, r.Body, 16)); err != nil {
			http.Error(w, err.Error(), http.StatusRequestEntityTooLarge)
		}
	})
	r.Get("/tools/orders/{id}", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "order "+chi.URLParam(r, "id")+" not found", http.StatusNotFound)
	})
	r.Get("/tools/broken", func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "database is down: pq: connection refused", http.StatusInternalServerError)
	})
	r.Get("/tools/hold", func(w http.ResponseWriter, r *http.Request) {
		<-hold
		_, _ = w.Write([]byte("done"))
	})
	return r
}

// localCase is one row of the matrix.
type localCase struct {
	name          string
	mws           []func(http.Handler) http.Handler
	method, path  string
	body          string
	header        http.Header
	code          string
	status        int
	retryable     bool
	checkResponse func(t *testing.T, resp *http.Response, p map[string]any)
}

func TestCompositionLocalFailuresAreLocal(t *testing.T) {
	cases := []localCase{
		{name: "Recoverer and a panic", mws: mws(chimw.Recoverer), method: "GET", path: "/tools/panic",
			code: toolerr.CodeInternal, status: 500},
		{name: "Timeout and a handler that stops", mws: mws(chimw.Timeout(50 * time.Millisecond)), method: "GET", path: "/tools/slow",
			code: toolerr.CodeToolTimeout, status: 504, retryable: true},
		{name: "Timeout and a tool that returns the context's error", mws: mws(chimw.Timeout(50 * time.Millisecond)), method: "POST", path: "/tools/slow_tool",
			code: toolerr.CodeToolTimeout, status: 504, retryable: false},
		{name: "MaxBytesReader error returned by a tool", method: "POST", path: "/tools/upload", body: strings.Repeat("x", 64),
			code: toolerr.CodePayloadTooLarge, status: 413},
		{name: "MaxBytesReader and http.Error 413", method: "POST", path: "/tools/upload_raw", body: strings.Repeat("x", 64),
			code: toolerr.CodePayloadTooLarge, status: 413},
		{name: "handler's own 404", method: "GET", path: "/tools/orders/42",
			code: toolerr.CodeNotFound, status: 404},
		{name: "router's 404", method: "GET", path: "/tools/no_such_tool",
			code: toolerr.CodeToolNotFound, status: 404},
		{name: "router's 405 keeps Allow", method: "DELETE", path: "/tools/orders/42",
			code: toolerr.CodeMethodNotAllowed, status: 405,
			checkResponse: func(t *testing.T, resp *http.Response, p map[string]any) {
				assert.Contains(t, resp.Header.Values("Allow"), "GET")
				allowed, _ := p["allowed_values"].([]any)
				assert.Contains(t, allowed, "GET", "the accepted methods are the error's allowed_values")
				assert.Contains(t, p["hint"], "allowed_values", "and the hint points at them")
				assert.NotContains(t, p["hint"], "field")
			}},
		{name: "a local 500 with a driver's text", mws: mws(chimw.RequestID, realIP, chimw.Logger), method: "GET", path: "/tools/broken",
			code: toolerr.CodeInternal, status: 500,
			checkResponse: func(t *testing.T, resp *http.Response, p map[string]any) {
				assert.NotContains(t, p["detail"], "pq:")
				assert.Equal(t, resp.Header.Get("X-Request-Id"), p["request_id"])
			}},
		{name: "Compress", mws: mws(chimw.Compress(5)), method: "GET", path: "/tools/broken",
			header: http.Header{"Accept-Encoding": {"gzip"}}, code: toolerr.CodeInternal, status: 500},
	}
	for _, outermost := range []bool{true, false} {
		order := map[bool]string{true: "toolerr outermost", false: "toolerr innermost"}[outermost]
		for _, tc := range cases {
			t.Run(order+"/"+tc.name, func(t *testing.T) {
				url := newServer(t, chiStack(outermost, nil, tc.mws...))
				resp, body := rawDo(t, tc.method, url+tc.path, tc.header, tc.body)
				require.Equal(t, tc.status, resp.StatusCode, "%s", body)
				p := problem(t, body)
				assert.Equal(t, tc.code, p["code"])
				assert.NotContains(t, p, "upstream", "a local failure names no downstream")
				assert.NotContains(t, string(body), "A service we depend on")
				assert.Equal(t, tc.retryable, p["retryable"])
				if tc.checkResponse != nil {
					tc.checkResponse(t, resp, p)
				}
			})
		}
	}
}

// TestCompositionThrottle: chi Throttle's 429 is RATE_LIMITED, the
// service's own. Throttle answers without calling the next handler, so
// toolerr must be mounted before it (docs/mounting.md says so).
func TestCompositionThrottle(t *testing.T) {
	docpage.Says(t, "../docs/mounting.md",
		"| chi `Throttle`, rate limiters | inside | their 429 becomes `RATE_LIMITED`; outside, their text reaches the agent |")
	{
		hold := make(chan struct{})
		var once sync.Once
		release := func() { once.Do(func() { close(hold) }) }
		t.Cleanup(release)
		// entered closes once the held call holds Throttle's one token, so
		// the second call is sent only then, however loaded the machine.
		entered := make(chan struct{})
		signal := func(next http.Handler) http.Handler {
			return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.URL.Path == "/tools/hold" {
					close(entered)
				}
				next.ServeHTTP(w, r)
			})
		}
		url := newServer(t, chiStack(true, hold, chimw.Throttle(1), signal))
		var wg sync.WaitGroup
		wg.Add(1)
		started := make(chan struct{})
		go func() {
			defer wg.Done()
			req, _ := http.NewRequestWithContext(context.Background(), "GET", url+"/tools/hold", nil)
			close(started)
			if resp, err := http.DefaultClient.Do(req); err == nil {
				_ = resp.Body.Close()
			}
		}()
		<-started
		select {
		case <-entered:
		case <-time.After(30 * time.Second):
			t.Fatal("the held call never reached the handler")
		}
		var p map[string]any
		require.Eventually(t, func() bool {
			resp, body := do(t, "GET", url+"/tools/orders/1", nil, "")
			if resp.StatusCode != http.StatusTooManyRequests {
				return false
			}
			p = problem(t, body)
			return true
		}, 5*time.Second, 5*time.Millisecond, "the second concurrent call is throttled")
		release()
		wg.Wait()
		assert.Equal(t, toolerr.CodeRateLimited, p["code"])
		assert.NotContains(t, p, "upstream")
		assert.Equal(t, true, p["retryable"])
	}
}

// rawDo is do without the client's transparent decompression: the test
// sees the bytes on the wire, and decompresses them when they say gzip.
func rawDo(t *testing.T, method, url string, header http.Header, body string) (*http.Response, []byte) {
	t.Helper()
	req, err := http.NewRequest(method, url, strings.NewReader(body))
	require.NoError(t, err)
	for k, v := range header {
		req.Header[k] = v
	}
	resp, err := (&http.Client{Transport: &http.Transport{DisableCompression: true}}).Do(req)
	require.NoError(t, err)
	defer resp.Body.Close()
	var r io.Reader = resp.Body
	if resp.Header.Get("Content-Encoding") == "gzip" {
		zr, err := gzip.NewReader(resp.Body)
		require.NoError(t, err)
		r = zr
	}
	b, err := io.ReadAll(r)
	require.NoError(t, err)
	return resp, b
}

// realIP is chi's RealIP, which services still mount (deprecated in chi
// 5.5 for trusting forwarding headers; toolerr must work beside it).
//
//lint:ignore SA1019 the stack under test mounts it as users do
var realIP = chimw.RealIP

// mws lists middlewares.
func mws(m ...func(http.Handler) http.Handler) []func(http.Handler) http.Handler { return m }
