package mcptool_test

import (
	"bytes"
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/mcptool"
)

// idemBig is 2^60+1: as a float64 it would be 2^60.
const idemBig = "1152921504606846977"

// idemIn are the arguments of the rig's tools.
type idemIn struct {
	To   string `json:"to,omitempty"`
	Slow bool   `json:"slow,omitempty"`
	Note string `json:"note,omitempty"`
}

// idemLabel is create_label's typed output.
type idemLabel struct {
	Label   string `json:"label"`
	Account int64  `json:"account"`
}

// idemRig is an MCP server behind toolerr's HTTP middleware, whose tools
// count their runs, over streamable HTTP: stateless with SSE answers
// (/mcp) or JSON answers (/mcp-json), and stateful (/mcp-session).
type idemRig struct {
	url  string
	runs sync.Map // tool → *atomic.Int32
}

// ptr returns a pointer to v.
func ptr[T any](v T) *T { return &v }

// newIdemRig starts the rig; opts configure idempotency.
func newIdemRig(t *testing.T, opts ...idempotency.Option) *idemRig {
	t.Helper()
	rig := &idemRig{}
	logger, _ := newLogger()
	opt := mcptool.WithLogger(logger)
	idem := mcptool.WithIdempotency(idempotency.NewMemoryStore(), opts...)
	s := newServer()
	s.AddReceivingMiddleware(mcptool.Middleware(opt))
	additive := &mcp.ToolAnnotations{DestructiveHint: ptr(false)}
	mcptool.AddTool(s, &mcp.Tool{Name: "create_label", Annotations: additive}, func(_ context.Context, _ *mcp.CallToolRequest, in idemIn) (*mcp.CallToolResult, idemLabel, error) {
		n := rig.count("create_label")
		if in.Slow {
			time.Sleep(300 * time.Millisecond)
		}
		return nil, idemLabel{Label: "L-" + strconv.Itoa(int(n)) + "-" + in.To, Account: 1152921504606846977}, nil
	}, opt, idem)
	mcptool.AddTool(s, &mcp.Tool{Name: "charge", Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true)}}, func(_ context.Context, _ *mcp.CallToolRequest, in idemIn) (*mcp.CallToolResult, any, error) {
		n := rig.count("charge")
		return &mcp.CallToolResult{
			Content:           []mcp.Content{&mcp.TextContent{Text: "charged ch_" + strconv.Itoa(int(n))}},
			StructuredContent: json.RawMessage(`{"charge":"ch_` + strconv.Itoa(int(n)) + `","amount_minor":` + idemBig + `,"to":` + strconv.Quote(in.To) + `}`),
		}, nil, nil
	}, opt, idem)
	mcptool.AddTool(s, &mcp.Tool{Name: "flaky_send", Annotations: additive}, func(context.Context, *mcp.CallToolRequest, idemIn) (*mcp.CallToolResult, any, error) {
		if rig.count("flaky_send") == 1 {
			return nil, nil, toolerr.Default().New(toolerr.CodeRateLimited, "Slow down.")
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "sent"}}}, nil, nil
	}, opt, idem)
	mcptool.AddTool(s, &mcp.Tool{Name: "cancel_order", Annotations: &mcp.ToolAnnotations{DestructiveHint: ptr(true)}}, func(context.Context, *mcp.CallToolRequest, idemIn) (*mcp.CallToolResult, idemLabel, error) {
		rig.count("cancel_order")
		return nil, idemLabel{}, toolerr.Default().New(toolerr.CodeNotFound, "No order ord_8f3a2b91.")
	}, opt, idem)
	mcptool.AddTool(s, &mcp.Tool{Name: "boom", Annotations: additive}, func(context.Context, *mcp.CallToolRequest, idemIn) (*mcp.CallToolResult, any, error) {
		if rig.count("boom") == 1 {
			panic("boom")
		}
		return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "ok"}}}, nil, nil
	}, opt, idem)
	mcptool.AddTool(s, &mcp.Tool{Name: "own_error", Annotations: additive}, func(context.Context, *mcp.CallToolRequest, idemIn) (*mcp.CallToolResult, any, error) {
		rig.count("own_error")
		return &mcp.CallToolResult{IsError: true, Content: []mcp.Content{&mcp.TextContent{Text: "database unavailable"}}}, nil, nil
	}, opt, idem)
	reads := func(name string) mcp.ToolHandlerFor[idemIn, any] {
		return func(context.Context, *mcp.CallToolRequest, idemIn) (*mcp.CallToolResult, any, error) {
			rig.count(name)
			return &mcp.CallToolResult{Content: []mcp.Content{&mcp.TextContent{Text: "3 ships"}}}, nil, nil
		}
	}
	mcptool.AddTool(s, &mcp.Tool{Name: "search", Annotations: &mcp.ToolAnnotations{ReadOnlyHint: true}}, reads("search"), opt, idem)
	mcptool.AddTool(s, &mcp.Tool{Name: "titled", Annotations: &mcp.ToolAnnotations{Title: "Titled"}}, reads("titled"), opt, idem)
	mcptool.AddTool(s, &mcp.Tool{Name: "bare"}, reads("bare"), opt, idem)

	get := func(*http.Request) *mcp.Server { return s }
	mux := http.NewServeMux()
	mux.Handle("/mcp", mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{Stateless: true}))
	mux.Handle("/mcp-json", mcp.NewStreamableHTTPHandler(get, &mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: true}))
	mux.Handle("/mcp-session", mcp.NewStreamableHTTPHandler(get, nil))
	srv := httptest.NewServer(middleware.New(middleware.WithLogger(logger))(mux))
	t.Cleanup(srv.Close)
	rig.url = srv.URL
	return rig
}

// count adds a run of tool and returns how many it has.
func (rig *idemRig) count(tool string) int32 { return rig.counter(tool).Add(1) }

// counter returns the run counter of tool.
func (rig *idemRig) counter(tool string) *atomic.Int32 {
	c, _ := rig.runs.LoadOrStore(tool, new(atomic.Int32))
	return c.(*atomic.Int32)
}

// idemExchange is one HTTP exchange of a client.
type idemExchange struct {
	request  []byte
	header   http.Header
	response []byte
}

// idemWire is a client transport that sends header with every request
// and keeps each exchange.
type idemWire struct {
	header http.Header
	base   *http.Transport
	mu     sync.Mutex
	all    []*idemExchange
}

// RoundTrip implements http.RoundTripper.
func (w *idemWire) RoundTrip(req *http.Request) (*http.Response, error) {
	out, body, err := readRequest(req)
	if err != nil {
		return nil, err
	}
	for k, v := range w.header {
		out.Header[k] = v
	}
	resp, err := w.base.RoundTrip(out)
	if err != nil {
		return nil, err
	}
	ex := &idemExchange{request: body, header: resp.Header.Clone()}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		// A JSON answer is read whole here; an SSE stream is left alone.
		b, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil {
			return nil, err
		}
		ex.response = b
		resp.Body = io.NopCloser(bytes.NewReader(b))
	}
	w.mu.Lock()
	w.all = append(w.all, ex)
	w.mu.Unlock()
	return resp, nil
}

// readRequest reads req's body and returns a clone of req that sends it,
// and the body.
func readRequest(req *http.Request) (*http.Request, []byte, error) {
	var body []byte
	if req.Body != nil {
		var err error
		if body, err = io.ReadAll(req.Body); err != nil {
			return nil, nil, err
		}
		_ = req.Body.Close()
	}
	out := req.Clone(req.Context())
	out.Body, out.ContentLength = io.NopCloser(bytes.NewReader(body)), int64(len(body))
	return out, body, nil
}

// lastCall returns the last exchange that carried a tools/call.
func (w *idemWire) lastCall(t *testing.T) *idemExchange {
	t.Helper()
	w.mu.Lock()
	defer w.mu.Unlock()
	for i := len(w.all) - 1; i >= 0; i-- {
		if bytes.Contains(w.all[i].request, []byte(`"tools/call"`)) {
			return w.all[i]
		}
	}
	t.Fatal("no tools/call on the wire")
	return nil
}

// structuredOnWire returns the structuredContent of a JSON answer as sent.
func (ex *idemExchange) structuredOnWire(t *testing.T) string {
	t.Helper()
	var msg struct {
		Result struct {
			Structured json.RawMessage `json:"structuredContent"`
		} `json:"result"`
	}
	require.NoError(t, json.Unmarshal(ex.response, &msg), "%s", ex.response)
	return string(msg.Result.Structured)
}

// connect connects a client to path, sending header with every request.
func (rig *idemRig) connect(t *testing.T, path string, header http.Header) (*mcp.ClientSession, *idemWire) {
	t.Helper()
	wire := &idemWire{header: header, base: &http.Transport{}}
	t.Cleanup(wire.base.CloseIdleConnections)
	client := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "v0.0.1"}, nil)
	cs, err := client.Connect(context.Background(), &mcp.StreamableClientTransport{
		Endpoint: rig.url + path, HTTPClient: &http.Client{Transport: wire, Timeout: 30 * time.Second},
	}, nil)
	require.NoError(t, err)
	t.Cleanup(func() { _ = cs.Close() })
	return cs, wire
}

// callKeyed calls tool with args and, when key is not "", the key in _meta.
func callKeyed(t *testing.T, cs *mcp.ClientSession, tool string, args idemIn, key string) *mcp.CallToolResult {
	t.Helper()
	p := &mcp.CallToolParams{Name: tool, Arguments: args}
	if key != "" {
		p.Meta = mcp.Meta{mcptool.MetaIdempotencyKey: key}
	}
	res, err := cs.CallTool(context.Background(), p)
	require.NoError(t, err)
	return res
}

// bearer returns the header of an authenticated caller.
func bearer(token string) http.Header { return http.Header{"Authorization": {"Bearer " + token}} }
