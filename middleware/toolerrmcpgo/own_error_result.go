package toolerrmcpgo

import (
	"github.com/mark3labs/mcp-go/mcp"
)

// redactOwn returns res, a failed result the handler built itself with no
// Go error behind it (mcp.NewToolResultError), with the secrets and
// payment data of its text content redacted by the sanitizer's Redact:
// the handler's own words are its error for the agent and stay, line
// breaks and all, but no credential or card number reaches the agent
// through them. res itself when nothing changed; res is never modified.
func (a *adapter) redactOwn(res *mcp.CallToolResult) *mcp.CallToolResult {
	var content []mcp.Content
	for i, c := range res.Content {
		switch tc := c.(type) {
		case mcp.TextContent:
			if r := a.core.Sanitizer.Redact(tc.Text); r != tc.Text {
				tc.Text = r
				content = changedContent(content, res.Content, i, tc)
			}
		case *mcp.TextContent:
			if tc == nil {
				continue
			}
			if r := a.core.Sanitizer.Redact(tc.Text); r != tc.Text {
				n := *tc
				n.Text = r
				content = changedContent(content, res.Content, i, &n)
			}
		}
	}
	if content == nil {
		return res
	}
	out := *res
	out.Content = content
	return &out
}

// changedContent returns content (a copy of all, made at the first
// change) with its item i set to c.
func changedContent(content, all []mcp.Content, i int, c mcp.Content) []mcp.Content {
	if content == nil {
		content = append([]mcp.Content(nil), all...)
	}
	content[i] = c
	return content
}
