package toolerrmcpgo_test

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/toolerrmcpgo"
)

// idemBig is 2^60+1: as a float64 it would be 2^60.
const idemBig = "1152921504606846977"

// idemRig is an mcp-go server with toolerr's idempotency, behind toolerr's
// HTTP middleware, whose tools count their runs, over streamable HTTP:
// stateless at /mcp and stateful at /mcp-session (the protocol versions
// with sessions).
type idemRig struct {
	url  string
	runs sync.Map // tool → *atomic.Int32
}

// newIdemRig starts the rig with WithRecovery placed as p (noRecovery or
// recoveryInner) and opts configuring idempotency.
func newIdemRig(t *testing.T, p placement, opts ...idempotency.Option) *idemRig {
	t.Helper()
	rig := &idemRig{}
	logger, _ := newLogger()
	s := server.NewMCPServer("shipping", "1.0.0", server.WithInputSchemaValidation())
	toolerrmcpgo.Install(s, toolerrmcpgo.WithLogger(logger),
		toolerrmcpgo.WithIdempotency(idempotency.NewMemoryStore(), opts...))
	if p == recoveryInner {
		server.WithRecovery()(s)
	}
	rig.addTools(s)
	mux := http.NewServeMux()
	mux.Handle("/mcp", server.NewStreamableHTTPServer(s, server.WithStateLess(true)))
	mux.Handle("/mcp-session", server.NewStreamableHTTPServer(s, server.WithStateful(true),
		server.WithStreamableHTTPProtocolVersions(sessionVersions()...)))
	srv := httptest.NewServer(middleware.New(middleware.WithLogger(logger))(mux))
	t.Cleanup(srv.Close)
	rig.url = srv.URL
	return rig
}

// addTools adds the rig's tools: mutating ones declared each way mcp-go
// allows, and tools that must never be guarded.
func (rig *idemRig) addTools(s *server.MCPServer) {
	to := mcp.WithString("to", mcp.Required())
	additive := mcp.WithDestructiveHintAnnotation(false)
	// create_label only adds: mcp.NewTool, with a hint that differs from
	// its default.
	s.AddTool(mcp.NewTool("create_label", to, mcp.WithBoolean("slow"), additive),
		func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			n := rig.count("create_label")
			if req.GetBool("slow", false) {
				time.Sleep(300 * time.Millisecond)
			}
			label := "L-" + strconv.Itoa(int(n)) + "-" + req.GetString("to", "")
			return &mcp.CallToolResult{
				Content:              []mcp.Content{mcp.NewTextContent("label " + label)},
				RawStructuredContent: json.RawMessage(`{"label":"` + label + `","account":` + idemBig + `}`),
			}, nil
		})
	// charge is an mcp.Tool literal whose destructiveHint is the author's.
	charge := mcp.NewToolWithRawSchema("charge", "Charges a card.", json.RawMessage(`{"type":"object","properties":{"to":{"type":"string"}}}`))
	charge.Annotations = mcp.ToolAnnotation{DestructiveHint: mcp.ToBoolPtr(true)}
	s.AddTool(charge, func(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		n := strconv.Itoa(int(rig.count("charge")))
		res := mcp.NewToolResultText("charged ch_" + n)
		res.Meta = &mcp.Meta{AdditionalFields: map[string]any{"example.com/ledger": json.RawMessage(idemBig)}}
		return res, nil
	})
	// delete_order replaces mcp.NewTool's defaults with its own hints.
	s.AddTool(mcp.NewTool("delete_order", to, mcp.WithToolAnnotation(mcp.ToolAnnotation{DestructiveHint: mcp.ToBoolPtr(true)})),
		rig.answer("delete_order", "deleted"))
	s.AddTool(mcp.NewTool("flaky_send", additive), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if rig.count("flaky_send") == 1 {
			return nil, toolerr.Default().New(toolerr.CodeRateLimited, "Slow down.")
		}
		return mcp.NewToolResultText("sent"), nil
	})
	s.AddTool(mcp.NewTool("boom", additive), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		if rig.count("boom") == 1 {
			panic("boom: " + dbError)
		}
		return mcp.NewToolResultText("ok"), nil
	})
	s.AddTool(mcp.NewTool("own_error", additive), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		rig.count("own_error")
		return mcp.NewToolResultError("database unavailable"), nil
	})
	s.AddTool(mcp.NewTool("cancel_order", additive), func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		rig.count("cancel_order")
		return nil, toolerr.Default().New(toolerr.CodeNotFound, "No order ord_8f3a2b91.")
	})
	// Tools that are never guarded: read-only, mcp.NewTool's defaults
	// only, no annotations, and a destructiveHint true that mcp.NewTool's
	// default cannot be told from.
	s.AddTool(mcp.NewTool("search", mcp.WithReadOnlyHintAnnotation(true)), rig.answer("search", "3 ships"))
	s.AddTool(mcp.NewTool("plain"), rig.answer("plain", "3 ships"))
	s.AddTool(mcp.NewToolWithRawSchema("bare", "", json.RawMessage(`{"type":"object"}`)), rig.answer("bare", "3 ships"))
	s.AddTool(mcp.NewTool("said_default", mcp.WithDestructiveHintAnnotation(true)), rig.answer("said_default", "done"))
}

// answer returns a handler that counts its runs of tool and answers text.
func (rig *idemRig) answer(tool, text string) server.ToolHandlerFunc {
	return func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		rig.count(tool)
		return mcp.NewToolResultText(text), nil
	}
}

// count adds a run of tool and returns how many it has.
func (rig *idemRig) count(tool string) int32 { return rig.counter(tool).Add(1) }

// counter returns the run counter of tool.
func (rig *idemRig) counter(tool string) *atomic.Int32 {
	c, _ := rig.runs.LoadOrStore(tool, new(atomic.Int32))
	return c.(*atomic.Int32)
}

// runs returns how many times tool ran.
func (rig *idemRig) ran(tool string) int32 { return rig.counter(tool).Load() }

// connect connects a client of kind to path, sending header with every
// request, and returns it with its wire.
func (rig *idemRig) connect(t *testing.T, kind clientKind, path string, header http.Header) (agent, *wire) {
	t.Helper()
	w := newWire(header)
	return kind.connect(t, rig.url+path, w), w
}

// bearer returns the header of an authenticated caller.
func bearer(token string) http.Header { return http.Header{"Authorization": {"Bearer " + token}} }

// keyed calls tool with args and key, and fails the test on a protocol
// error.
func keyed(t *testing.T, a agent, tool string, args map[string]any, key string) map[string]any {
	t.Helper()
	res, err := a.callKeyed(t, tool, args, key)
	require.NoError(t, err, "%s: protocol error", tool)
	return res
}

// refusal returns the code of a failed call's problem object.
func refusal(t *testing.T, res map[string]any) string {
	t.Helper()
	code, _ := problemOf(t, res)["code"].(string)
	return code
}

// replayed reports whether res is marked replayed.
func replayed(res map[string]any) bool {
	meta, _ := res["_meta"].(map[string]any)
	return meta[toolerrmcpgo.MetaReplayed] == true
}

// assertReplay checks that again is first replayed: the same content,
// structuredContent and isError, marked replayed, with the _meta members
// the handler set.
func assertReplay(t *testing.T, first, again map[string]any) {
	t.Helper()
	assert.Equal(t, first["content"], again["content"])
	assert.Equal(t, first["structuredContent"], again["structuredContent"])
	assert.Equal(t, first["isError"], again["isError"])
	assert.False(t, replayed(first), "the first answer is no replay")
	assert.True(t, replayed(again), "the retry is marked %s: %v", toolerrmcpgo.MetaReplayed, again)
	fm, _ := first["_meta"].(map[string]any)
	am, _ := again["_meta"].(map[string]any)
	for k, v := range fm {
		if k != "io.modelcontextprotocol/serverInfo" {
			assert.Equal(t, v, am[k], "_meta %s", k)
		}
	}
}

// lastCall returns the answer to the last tools/call the client of w sent.
func lastCall(t *testing.T, w *wire) *exchange {
	t.Helper()
	all := w.exchanges()
	for i := len(all) - 1; i >= 0; i-- {
		if bytes.Contains(all[i].request, []byte(`"tools/call"`)) {
			return all[i]
		}
	}
	t.Fatal("no tools/call on the wire")
	return nil
}
