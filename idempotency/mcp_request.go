package idempotency

import (
	"net/http"
	"strings"
)

// mcpRequest reports whether r carries a message of MCP's streamable HTTP
// transport: it has an Mcp-Session-Id or Mcp-Protocol-Version header, or
// accepts both application/json and text/event-stream, as every MCP
// client's POST does (initialize included).
//
// [Middleware] and [DuplicateGuard] pass such requests through untouched.
// One POST carries one JSON-RPC message whose id the client chose: a
// response replayed for it would answer another message's id, and the
// tool call it holds is not the request's to judge. MCP tool calls get
// the same promises at the level of the call, from [ToolCalls] through
// the MCP adapters (mcptool.WithIdempotency, toolerrmcpgo), which read the
// Idempotency-Key header of the POST that carried the call.
func mcpRequest(r *http.Request) bool {
	h := r.Header
	if len(h["Mcp-Session-Id"]) > 0 || len(h["Mcp-Protocol-Version"]) > 0 {
		return true
	}
	json, sse := false, false
	for _, v := range h["Accept"] {
		lv := strings.ToLower(v)
		json = json || strings.Contains(lv, "application/json")
		sse = sse || strings.Contains(lv, "text/event-stream")
	}
	return json && sse
}
