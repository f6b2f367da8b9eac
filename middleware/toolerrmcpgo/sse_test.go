package toolerrmcpgo_test

import (
	"context"
	"testing"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// TestSSETransportCallsCarryTheirPOSTsIDs: mcp-go's SSE transport answers
// each POST with 202 and runs the call after, under that POST's context
// and headers; each failure, sent on the GET's stream, carries the
// X-Request-Id of the POST that carried its call, never the GET's.
func TestSSETransportCallsCarryTheirPOSTsIDs(t *testing.T) {
	r := newRig(t, noRecovery, nil)
	w := newWire(nil)
	c, err := mcpclient.NewSSEMCPClient(r.url+"/sse", transport.WithHTTPClient(w.client()))
	require.NoError(t, err)
	ctx := context.Background()
	require.NoError(t, c.Start(ctx))
	t.Cleanup(func() { _ = c.Close() })
	_, err = c.Initialize(ctx, mcp.InitializeRequest{})
	require.NoError(t, err)
	a := &mcpgoAgent{c: c}
	var stream string
	for _, ex := range w.exchanges() {
		if ex.header.Get("Content-Type") == "text/event-stream" {
			stream = ex.header.Get("X-Request-Id")
		}
	}
	require.NotEmpty(t, stream, "the GET's stream")
	ids := map[string]bool{}
	for _, call := range idCalls {
		res, err := a.call(t, call.tool, map[string]any{"order_id": "ord_1", "note": call.note})
		require.NoError(t, err)
		p := problemOf(t, res)
		ex := w.callWith(t, call.note)
		assert.Equal(t, 202, ex.status)
		assert.Equal(t, ex.header.Get("X-Request-Id"), p["request_id"], "the id of the call's POST")
		assert.NotEqual(t, stream, p["request_id"])
		assert.True(t, toolerr.ValidTraceID(p["trace_id"].(string)))
		ids[p["request_id"].(string)] = true
	}
	assert.Len(t, ids, len(idCalls))
}
