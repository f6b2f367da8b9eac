package sdkmajors

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/leakprobe"
	"github.com/toolerr/toolerr/middleware"
)

// Call makes one request with the SDK under test, of the given method
// ("GET" or "POST"), to the API at base (with a trailing slash) through
// hc, with the SDK's own retries off, and returns the SDK's error.
type Call func(ctx context.Context, base string, hc *http.Client, method string) error

// unreadWarning starts the line the middleware logs for an SDK error that
// nothing read.
const unreadWarning = "toolerr: an SDK error no mapper read"

// Run runs every case of vendor's table: a loopback server replays the
// case's response, a tool mounted in the real middleware (with opts, such
// as a mapper) calls it through call, and the agent's error must be the
// case's Want, with exactly one request made and no warning that the
// SDK's error went unread. It returns the number of cases run.
func Run(t *testing.T, vendor string, call Call, opts ...middleware.Option) int {
	t.Helper()
	table, err := Load(vendor)
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range table.Cases {
		t.Run(c.Name, func(t *testing.T) { runCase(t, table, c, call, opts) })
	}
	return len(table.Cases)
}

// runCase runs one case.
func runCase(t *testing.T, table Table, c Case, call Call, opts []middleware.Option) {
	var hits atomic.Int32
	vendor := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		_, _ = io.Copy(io.Discard, r.Body)
		now := time.Now()
		h := w.Header()
		h.Set("Content-Type", "application/json")
		for _, hs := range []map[string]string{table.Header, c.Header} {
			for k, v := range hs {
				h.Set(k, expand(v, now))
			}
		}
		w.WriteHeader(c.Status)
		_, _ = io.WriteString(w, c.Body)
	}))
	defer vendor.Close()

	var logs leakprobe.Buffer
	all := append([]middleware.Option{middleware.WithLogger(slog.New(slog.NewJSONHandler(&logs, nil)))}, opts...)
	tool := httptest.NewServer(middleware.New(all...)(middleware.Tool(table.Vendor, func(_ http.ResponseWriter, r *http.Request) error {
		err := call(r.Context(), vendor.URL+"/", vendor.Client(), c.Method)
		if err == nil {
			return errors.New("sdkmajors: the SDK reported no error")
		}
		return fmt.Errorf("%s call: %w", table.Vendor, err)
	})))
	resp, err := http.Post(tool.URL+"/"+table.Vendor, "application/json", strings.NewReader(`{}`))
	if err != nil {
		tool.Close()
		t.Fatal(err)
	}
	body, err := io.ReadAll(resp.Body)
	_ = resp.Body.Close()
	tool.Close() // waits for the handler, so its log lines are in
	if err != nil {
		t.Fatal(err)
	}
	e, err := toolerr.Parse(body)
	if err != nil {
		t.Fatalf("not a toolerr error: %v\n%s", err, body)
	}
	if n := hits.Load(); n != 1 {
		t.Errorf("%d requests reached the vendor; want 1 (the SDK's retries off)", n)
	}
	if bytes.Contains(logs.Bytes(), []byte(unreadWarning)) {
		t.Errorf("the SDK's error went unread:\n%s", logs.Bytes())
	}
	check(t, table, c, e, body)
}

// check compares the agent's error with the case's Want.
func check(t *testing.T, table Table, c Case, e *toolerr.Error, body []byte) {
	t.Helper()
	w := c.Want
	fail := func(what string, got, want any) {
		t.Helper()
		t.Errorf("%s = %v, want %v\n%s", what, got, want, body)
	}
	if string(e.Code) != w.Code {
		fail("code", e.Code, w.Code)
	}
	if e.Retryable != w.Retryable {
		fail("retryable", e.Retryable, w.Retryable)
	}
	if got := e.RetryAfter.Milliseconds(); got < w.RetryAfterMS-w.RetryAfterSlackMS || got > w.RetryAfterMS+w.RetryAfterSlackMS {
		fail("retry_after_ms", got, w.RetryAfterMS)
	}
	if e.Field != w.Field {
		fail("field", e.Field, w.Field)
	}
	if e.Upstream == nil {
		fail("upstream", nil, table.Vendor)
		return
	}
	if e.Upstream.Vendor != table.Vendor {
		fail("upstream.vendor", e.Upstream.Vendor, table.Vendor)
	}
	if e.Upstream.Code != w.UpstreamCode {
		fail("upstream.code", e.Upstream.Code, w.UpstreamCode)
	}
	if e.Upstream.Status != w.UpstreamStatus {
		fail("upstream.status", e.Upstream.Status, w.UpstreamStatus)
	}
	if e.Upstream.RequestID != w.RequestID {
		fail("upstream.request_id", e.Upstream.RequestID, w.RequestID)
	}
	for k, v := range w.Details {
		if got, _ := e.Details[k].(string); got != v {
			fail("details."+k, e.Details[k], v)
		}
	}
}
