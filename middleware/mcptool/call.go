package mcptool

import (
	"context"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"
)

// callContext returns the context the tool call req runs under: a request
// scope of its own holding the call's ids (see the package doc), so that
// the ids its error carries and what its handler records
// (toolerr.RecordIntent) belong to this call alone. A context already made
// for req ([Middleware]'s, for [Wrap]) is returned as it is.
func (c *config) callContext(ctx context.Context, req *mcp.CallToolRequest) context.Context {
	var header http.Header
	if req != nil && req.Extra != nil {
		header = req.Extra.Header
	}
	var key any
	if req != nil {
		key = req
	}
	return c.CallContext(ctx, key, header)
}
