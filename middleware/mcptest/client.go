package mcptest

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"
	"time"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolerr/toolerr/middleware/mcptool"
)

// runTimeout bounds a client's run (its session and every call of it), and
// how long the suite's tools wait for anything; a call that hangs fails
// its group instead of the test binary.
const runTimeout = 60 * time.Second

// call is one tools/call of a case.
type call struct {
	tool string
	args json.RawMessage
	// key, when set, is the call's idempotency key, which the client sends
	// in the call's _meta (mcptool.MetaIdempotencyKey).
	key string
	// repeat says the call repeats an earlier call of the group with the
	// same tool and arguments on purpose (a retry, an accidental
	// duplicate); [collect] refuses any other such pair.
	repeat bool
	// cancelAfter, when set, makes the client abort the call after this
	// long, which sends MCP's notifications/cancelled.
	cancelAfter time.Duration

	// Set by [collect]: how many calls of the group have this call's tool
	// and arguments, and how many of them come before it. Their POSTs
	// arrive in that order (a group's calls are made one after another),
	// which is how [report.exchangeOf] tells them apart.
	same, nth int
}

// outcome is what the client got for one call: the result as the client
// decoded it (as JSON: content, structuredContent, _meta, isError), or
// what it threw (a protocol error, an aborted call, a result the client
// refused).
type outcome struct {
	call   call
	result map[string]any
	threw  string
}

// client is one MCP client the suite drives.
type client struct {
	name string
	// run connects to url, sending header with every request, lists the
	// tools, makes calls in order in one session and returns the listing
	// (each tool as JSON) and the outcome of each call, in order.
	run func(t *testing.T, url string, header http.Header, calls []call) (tools []map[string]any, outs []outcome)
}

// clients are the clients of [Run].
func clients() []client {
	return []client{
		{name: "go-sdk client", run: runGoClient},
		{name: "TypeScript client", run: runTSClient},
	}
}

// runGoClient is the go-sdk client over streamable HTTP.
func runGoClient(t *testing.T, url string, header http.Header, calls []call) ([]map[string]any, []outcome) {
	t.Helper()
	transport := &http.Transport{}
	defer transport.CloseIdleConnections()
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	c := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "v0.0.1"}, nil)
	hc := &http.Client{Transport: headerTransport{header: header, base: transport}}
	cs, err := c.Connect(ctx, &mcp.StreamableClientTransport{Endpoint: url, HTTPClient: hc}, nil)
	if err != nil {
		t.Fatalf("mcptest: the go-sdk client cannot connect: %v", err)
	}
	defer func() { _ = cs.Close() }()
	list, err := cs.ListTools(ctx, nil)
	if err != nil {
		t.Fatalf("mcptest: tools/list: %v", err)
	}
	var tools []map[string]any
	for _, tool := range list.Tools {
		tools = append(tools, asJSON(t, tool))
	}
	outs := make([]outcome, 0, len(calls))
	for _, c := range calls {
		outs = append(outs, goCall(ctx, t, cs, c))
	}
	return tools, outs
}

// goCall makes one call with cs.
func goCall(ctx context.Context, t *testing.T, cs *mcp.ClientSession, c call) outcome {
	t.Helper()
	if c.cancelAfter > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, c.cancelAfter)
		defer cancel()
	}
	params := &mcp.CallToolParams{Name: c.tool, Arguments: c.args}
	if c.key != "" {
		params.Meta = mcp.Meta{mcptool.MetaIdempotencyKey: c.key}
	}
	res, err := cs.CallTool(ctx, params)
	if err != nil {
		return outcome{call: c, threw: err.Error()}
	}
	return outcome{call: c, result: asJSON(t, res)}
}

// headerTransport sends header with every request of the go-sdk client,
// as a client that holds credentials does.
type headerTransport struct {
	header http.Header
	base   http.RoundTripper
}

// RoundTrip sends req with header added.
func (h headerTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	if len(h.header) > 0 {
		req = req.Clone(req.Context())
		for k, vs := range h.header {
			req.Header[k] = append([]string(nil), vs...)
		}
	}
	return h.base.RoundTrip(req)
}

// asJSON returns v as the JSON object it marshals to.
func asJSON(t testing.TB, v any) map[string]any {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatalf("mcptest: marshal %T: %v", v, err)
	}
	var m map[string]any
	if err := json.Unmarshal(b, &m); err != nil {
		t.Fatalf("mcptest: %T is not a JSON object: %v", v, err)
	}
	return m
}
