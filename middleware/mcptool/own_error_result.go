package mcptool

import (
	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolerr/toolerr/middleware/sanitize"
)

// redactOwn returns r, a failed result a handler built itself with no Go
// error behind it, with the secrets and payment data of its text content
// redacted by s.Redact: the handler's own words are its error for the
// agent and stay, line breaks and all, but no credential or card number
// reaches the agent through them. r itself when nothing changed (or r is
// not a failure); r is never modified.
func redactOwn(s *sanitize.Sanitizer, r *mcp.CallToolResult) *mcp.CallToolResult {
	if r == nil || !r.IsError {
		return r
	}
	var content []mcp.Content
	for i, c := range r.Content {
		tc, ok := c.(*mcp.TextContent)
		if !ok || tc == nil {
			continue
		}
		if red := s.Redact(tc.Text); red != tc.Text {
			if content == nil {
				content = append([]mcp.Content(nil), r.Content...)
			}
			n := *tc
			n.Text = red
			content[i] = &n
		}
	}
	if content == nil {
		return r
	}
	out := *r
	out.Content = content
	return &out
}
