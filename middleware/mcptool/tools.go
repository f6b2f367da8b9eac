package mcptool

import (
	"bytes"
	"context"
	"encoding/json"
	"sync"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolerr/toolerr/argcheck"
)

// maxCachedTools bounds the tool definitions [Middleware] keeps compiled;
// past it the cache starts over.
const maxCachedTools = 1024

// maxToolPages bounds the tools/list pages read to find one tool.
const maxToolPages = 64

// toolInfo is what [Middleware] needs of a tool to complete a failure
// the SDK or an unwrapped handler produced.
type toolInfo struct {
	args       *argcheck.Schema // nil when the input schema is unknown or does not compile
	structured bool             // the tool declares no outputSchema
}

// toolCache holds the compiled input schemas of the tools a server's
// failures came from, by name, with the schema they were compiled from:
// a tool replaced under the same name is compiled again. Safe for
// concurrent use.
type toolCache struct {
	mu    sync.Mutex
	tools map[string]cachedTool
}

// cachedTool is one entry of a toolCache.
type cachedTool struct {
	input, output []byte // the schemas as listed
	info          toolInfo
}

// lookup returns what the server lists for the tool name, asking the
// server through next (tools/list, page by page). It is called on the
// failure path only. A tool the server does not list is unknown: no
// schema, and no structured content.
func (c *config) lookup(ctx context.Context, call *mcp.CallToolRequest, name string, next mcp.MethodHandler) toolInfo {
	t := findTool(ctx, call, name, next)
	if t == nil {
		return toolInfo{}
	}
	input, _ := json.Marshal(t.InputSchema)
	var output []byte
	if t.OutputSchema != nil {
		output, _ = json.Marshal(t.OutputSchema)
	}
	c.tools.mu.Lock()
	cached, ok := c.tools.tools[name]
	c.tools.mu.Unlock()
	if ok && bytes.Equal(cached.input, input) && bytes.Equal(cached.output, output) {
		return cached.info
	}
	info := toolInfo{structured: t.OutputSchema == nil}
	if s, err := argcheck.Compile(input, argcheck.WithRegistry(c.registry)); err == nil {
		info.args = s
	}
	c.tools.mu.Lock()
	if c.tools.tools == nil || len(c.tools.tools) >= maxCachedTools {
		c.tools.tools = make(map[string]cachedTool)
	}
	c.tools.tools[name] = cachedTool{input: input, output: output, info: info}
	c.tools.mu.Unlock()
	return info
}

// findTool lists the server's tools through next until it finds name.
func findTool(ctx context.Context, call *mcp.CallToolRequest, name string, next mcp.MethodHandler) *mcp.Tool {
	params := &mcp.ListToolsParams{}
	for range maxToolPages {
		res, err := next(ctx, "tools/list", &mcp.ListToolsRequest{Session: call.Session, Params: params, Extra: call.Extra})
		list, ok := res.(*mcp.ListToolsResult)
		if err != nil || !ok {
			return nil
		}
		for _, t := range list.Tools {
			if t != nil && t.Name == name {
				return t
			}
		}
		if list.NextCursor == "" {
			return nil
		}
		params = &mcp.ListToolsParams{Cursor: list.NextCursor}
	}
	return nil
}
