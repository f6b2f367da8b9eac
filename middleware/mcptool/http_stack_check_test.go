package mcptool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"

	"github.com/toolerr/toolerr"
)

// hsAssertNoSecret fails when s holds a planted secret, as sent or as
// UTF-16.
func hsAssertNoSecret(t *testing.T, where, s string) {
	t.Helper()
	for _, m := range hsSecretMarkers {
		assert.NotContains(t, s, m, "%s: secret", where)
		assert.NotContains(t, s, string(hsUTF16LE(m, false)), "%s: secret as UTF-16", where)
	}
}

// hsAssertClean fails when s holds a planted secret or internal address:
// the rule for everything the agent reads.
func hsAssertClean(t *testing.T, where, s string) {
	t.Helper()
	hsAssertNoSecret(t, where, s)
	for _, m := range hsInternalMarkers {
		assert.NotContains(t, s, m, "%s: internal address", where)
		assert.NotContains(t, s, string(hsUTF16LE(m, false)), "%s: internal address as UTF-16", where)
	}
}

// hsAssertNoStack fails when s holds a stack frame or trace header.
func hsAssertNoStack(t *testing.T, where, s string) {
	t.Helper()
	for _, m := range hsStackMarkers {
		assert.NotContains(t, s, m, "%s: stack trace", where)
	}
}

// hsAssertHeadersClean checks every response header, names and values.
func hsAssertHeadersClean(t *testing.T, h http.Header) {
	t.Helper()
	for k, vs := range h {
		hsAssertClean(t, "header "+k, k+": "+strings.Join(vs, "\n"))
	}
}

// records returns every log record written so far.
func (rig *hsRig) records(t *testing.T) []map[string]any {
	t.Helper()
	var out []map[string]any
	for line := range strings.SplitSeq(strings.TrimSpace(rig.logs.String()), "\n") {
		if line == "" {
			continue
		}
		var rec map[string]any
		require.NoError(t, json.Unmarshal([]byte(line), &rec), line)
		out = append(out, rec)
	}
	return out
}

// logsFor returns the records whose request_id is id.
func (rig *hsRig) logsFor(t *testing.T, id string) []map[string]any {
	t.Helper()
	var out []map[string]any
	for _, rec := range rig.records(t) {
		if rec["request_id"] == id {
			out = append(out, rec)
		}
	}
	return out
}

// hsAssertLogRecord checks one record: its cause and stack may name
// internal hosts for the operator but hold no secret; every other
// attribute, at any depth, holds neither.
func hsAssertLogRecord(t *testing.T, rec map[string]any) {
	t.Helper()
	for k, v := range rec {
		hsWalk(v, k, func(path, s string) {
			if k == "cause" || k == "stack" {
				hsAssertNoSecret(t, "log "+path, s)
				return
			}
			hsAssertClean(t, "log "+path, s)
		})
	}
}

// sweep checks every log record and every ended span of the service.
func (rig *hsRig) sweep(t *testing.T) {
	t.Helper()
	recs := rig.records(t)
	require.NotEmpty(t, recs)
	for _, rec := range recs {
		hsAssertLogRecord(t, rec)
	}
	spans := rig.spans.Ended()
	require.NotEmpty(t, spans)
	for _, s := range spans {
		hsAssertSpan(t, s)
	}
}

// hsWalk calls f for every string (keys too) in v.
func hsWalk(v any, path string, f func(path, s string)) {
	switch v := v.(type) {
	case string:
		f(path, v)
	case map[string]any:
		for k, x := range v {
			f(path+" (key)", k)
			hsWalk(x, path+"."+k, f)
		}
	case []any:
		for i, x := range v {
			hsWalk(x, path+"["+strconv.Itoa(i)+"]", f)
		}
	}
}

// traceSpans waits for the spans of trace to end and returns them.
func (rig *hsRig) traceSpans(t *testing.T, trace string) []sdktrace.ReadOnlySpan {
	t.Helper()
	var out []sdktrace.ReadOnlySpan
	require.Eventually(t, func() bool {
		out = out[:0]
		for _, s := range rig.spans.Ended() {
			if s.SpanContext().TraceID().String() == trace {
				out = append(out, s)
			}
		}
		return len(out) > 0
	}, 5*time.Second, 10*time.Millisecond, "no recorded span has the body's trace_id %s", trace)
	return out
}

// hsAssertSpan checks a span's status, attributes and events: no secret
// anywhere; no internal address except in a panic's redacted stack.
func hsAssertSpan(t *testing.T, s sdktrace.ReadOnlySpan) {
	t.Helper()
	hsAssertClean(t, "span status", s.Status().Description)
	for _, kv := range s.Attributes() {
		hsAssertClean(t, "span attribute "+string(kv.Key), kv.Value.String())
	}
	for _, ev := range s.Events() {
		for _, kv := range ev.Attributes {
			where := "span event " + ev.Name + " " + string(kv.Key)
			if kv.Key == "exception.stacktrace" {
				hsAssertNoSecret(t, where, kv.Value.String())
				continue
			}
			hsAssertClean(t, where, kv.Value.String())
		}
	}
}

// assertErrorExits checks every exit of one error answer: the body (clean,
// no stack, a valid problem), every header, the log records of its request
// id and the spans of its trace id, one of which carries error.type. It
// returns the problem object.
func (rig *hsRig) assertErrorExits(t *testing.T, res hsResult) map[string]any {
	t.Helper()
	require.GreaterOrEqual(t, res.status, 400, "%s", res.body)
	body := string(res.body)
	hsAssertClean(t, "body", body)
	hsAssertNoStack(t, "body", body)
	hsAssertHeadersClean(t, res.header)
	assert.NoError(t, toolerr.Validate(res.body), "the answer keeps the contract: %s", body)
	var p map[string]any
	require.NoError(t, json.Unmarshal(res.body, &p), body)

	id := res.header.Get("X-Request-Id")
	recs := rig.logsFor(t, id)
	assert.NotEmpty(t, recs, "a log record carries the answer's request id %s", id)
	for _, rec := range recs {
		hsAssertLogRecord(t, rec)
	}
	trace, _ := p["trace_id"].(string)
	require.True(t, toolerr.ValidTraceID(trace), "trace_id %q", trace)
	marked := false
	for _, s := range rig.traceSpans(t, trace) {
		hsAssertSpan(t, s)
		for _, kv := range s.Attributes() {
			marked = marked || (kv.Key == "toolerr.code" && kv.Value.AsString() == p["code"])
		}
	}
	assert.True(t, marked, "the request's span carries toolerr.code %v", p["code"])
	return p
}

// hsAssertOurID checks that the answer's X-Request-Id is chi's id of the
// request and the body's request_id.
func hsAssertOurID(t *testing.T, res hsResult, p map[string]any) {
	t.Helper()
	id := res.header.Get("X-Request-Id")
	require.NotEmpty(t, res.chiID, "chi's RequestID ran")
	assert.Equal(t, res.chiID, id, "X-Request-Id is chi's request id")
	if p != nil {
		assert.Equal(t, id, p["request_id"], "request_id is X-Request-Id")
	}
}

// hsExchange is one HTTP exchange of an MCP client, as on the wire.
type hsExchange struct {
	request []byte
	probe   string
	status  int
	header  http.Header
	mu      sync.Mutex
	body    bytes.Buffer
}

// text returns the response body read so far.
func (e *hsExchange) text() string {
	e.mu.Lock()
	defer e.mu.Unlock()
	return e.body.String()
}

// hsTee copies a response body into its exchange as the client reads it.
type hsTee struct {
	rc io.ReadCloser
	ex *hsExchange
}

// Read implements io.Reader.
func (b *hsTee) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.ex.mu.Lock()
	b.ex.body.Write(p[:n])
	b.ex.mu.Unlock()
	return n, err
}

// Close implements io.Closer.
func (b *hsTee) Close() error { return b.rc.Close() }

// hsWire is an MCP client's transport that probes each request (X-Probe),
// adds header to it, and keeps every exchange.
type hsWire struct {
	rig    *hsRig
	base   *http.Transport
	header http.Header
	mu     sync.Mutex
	all    []*hsExchange
}

// RoundTrip implements http.RoundTripper.
func (w *hsWire) RoundTrip(req *http.Request) (*http.Response, error) {
	out, body, err := readRequest(req) // idempotency_rig_test.go
	if err != nil {
		return nil, err
	}
	probe := "mcp-" + strconv.FormatInt(w.rig.probes.Add(1), 10)
	out.Header.Set("X-Probe", probe)
	for k, v := range w.header {
		out.Header[k] = v
	}
	resp, err := w.base.RoundTrip(out)
	if err != nil {
		return nil, err
	}
	ex := &hsExchange{request: body, probe: probe, status: resp.StatusCode, header: resp.Header.Clone()}
	resp.Body = &hsTee{rc: resp.Body, ex: ex}
	w.mu.Lock()
	w.all = append(w.all, ex)
	w.mu.Unlock()
	return resp, nil
}

// exchanges returns the exchanges so far.
func (w *hsWire) exchanges() []*hsExchange {
	w.mu.Lock()
	defer w.mu.Unlock()
	return slices.Clone(w.all)
}

// callOf returns the exchange that carried the tools/call of tool.
func (w *hsWire) callOf(t *testing.T, tool string) *hsExchange {
	t.Helper()
	var found *hsExchange
	for _, ex := range w.exchanges() {
		if bytes.Contains(ex.request, []byte(`"tools/call"`)) && bytes.Contains(ex.request, []byte(`"name":"`+tool+`"`)) {
			require.Nil(t, found, "one exchange per call of %s", tool)
			found = ex
		}
	}
	require.NotNil(t, found, "no exchange carried the call of %s", tool)
	return found
}

// mcpSession connects an MCP client to path over streamable HTTP.
func (rig *hsRig) mcpSession(t *testing.T, path string) (*mcp.ClientSession, *hsWire) {
	t.Helper()
	return rig.mcpSessionWith(t, path, nil)
}

// mcpSessionWith connects an MCP client to path over streamable HTTP,
// sending header with every request.
func (rig *hsRig) mcpSessionWith(t *testing.T, path string, header http.Header) (*mcp.ClientSession, *hsWire) {
	t.Helper()
	wire := &hsWire{rig: rig, base: &http.Transport{}, header: header}
	cs := rig.mcpConnect(t, wire, &mcp.StreamableClientTransport{
		Endpoint: rig.url + path, HTTPClient: &http.Client{Transport: wire},
	})
	return cs, wire
}

// mcpConnect connects an MCP client over transport, whose HTTP client
// goes through wire.
func (rig *hsRig) mcpConnect(t *testing.T, wire *hsWire, transport mcp.Transport) *mcp.ClientSession {
	t.Helper()
	t.Cleanup(wire.base.CloseIdleConnections)
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "v0.0.1"}, nil)
	cs, err := client.Connect(context.Background(), transport, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs
}
