package toolerrmcpgo

import (
	"context"
	"errors"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"
)

// mcpgoRejection returns the text of r when r is the answer mcp-go's
// server.WithInputSchemaValidation gives, before any tool middleware runs,
// to arguments that break a tool's input schema: an IsError result whose
// only content is the text "input schema validation failed: …" (or
// "invalid arguments: …" for arguments the validator cannot read), with
// no _meta and no structured content.
func mcpgoRejection(r *mcp.CallToolResult) (string, bool) {
	if r == nil || !r.IsError || len(r.Content) != 1 || r.Meta != nil ||
		r.StructuredContent != nil || len(r.RawStructuredContent) > 0 {
		return "", false
	}
	var text string
	switch c := r.Content[0].(type) {
	case mcp.TextContent:
		text = c.Text
	case *mcp.TextContent:
		if c == nil {
			return "", false
		}
		text = c.Text
	default:
		return "", false
	}
	if strings.HasPrefix(text, "input schema validation failed: ") || strings.HasPrefix(text, "invalid arguments: ") {
		return text, true
	}
	return "", false
}

// rejected rewrites r, mcp-go's answer to the arguments of req that its
// input schema validation rejected (the tool middleware did not run), in
// place: mcp-go serializes the result it handed its OnSuccess hooks. The
// call gets VALIDATION_FAILED of package argcheck for the tool's input
// schema, with every violation, its pointer, allowed values and repair;
// mcp-go's text, which quotes the values (&{Got:900/1 Want:500/1}), goes
// to the log only.
func (a *adapter) rejected(ctx context.Context, req *mcp.CallToolRequest, r *mcp.CallToolResult) {
	text, ok := mcpgoRejection(r)
	if !ok {
		return
	}
	name := req.Params.Name
	d := a.def(ctx, name)
	ctx = a.callContext(ctx, req, name)
	// When argcheck finds the arguments valid where mcp-go's validator
	// did not, the error is VALIDATION_FAILED all the same: the server
	// refused them.
	e := a.core.ArgumentsError(name, d.input(), rawArguments(req), errors.New(text))
	f := a.core.Rejected(ctx, a.call(name, d), e)
	*r = *result(f, d.structured)
}
