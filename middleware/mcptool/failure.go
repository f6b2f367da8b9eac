package mcptool

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolerr/toolerr"
)

// failure is a tool call's error, ready to send: the final toolerr error,
// its problem object and its one-line summary. As a Go error its text is
// the summary, which is what the SDK puts into Content when a typed handler
// returns it.
type failure struct {
	err     *toolerr.Error
	problem json.RawMessage
	line    string
}

// newFailure renders e.
func newFailure(e *toolerr.Error) *failure {
	return &failure{err: e, problem: e.AppendJSON(make([]byte, 0, 512)), line: summary(e)}
}

// Error returns the one-line summary: "CODE: detail Hint: hint request_id: id".
func (f *failure) Error() string { return f.line }

// Unwrap returns the toolerr error, so toolerr.From and errors.As find it
// in the SDK's server-side middleware (CallToolResult.GetError).
func (f *failure) Unwrap() error { return f.err }

// result returns the tool result of f: IsError, the problem object as
// StructuredContent and the summary as the only Content. GetError returns f.
func (f *failure) result() *mcp.CallToolResult {
	r := &mcp.CallToolResult{
		StructuredContent: f.problem,
		Content:           []mcp.Content{&mcp.TextContent{Text: f.line}},
	}
	r.SetError(f) // keeps Content, sets IsError
	return r
}

// summary is the text line of e for models that read Content only: the
// code, the detail, the hint and the request id, each as rendered in the
// problem object's defaults (an invalid code is INTERNAL_ERROR, a missing
// detail the title): "CODE: detail Hint: hint request_id: id". The request
// id is there because hints tell the model to escalate with it.
func summary(e *toolerr.Error) string {
	code := e.Code
	if !toolerr.ValidCode(code) {
		code = toolerr.CodeInternal
	}
	detail := e.Detail
	if detail == "" {
		detail = e.Title
	}
	line := code
	if detail != "" && detail != code {
		line += ": " + detail
	}
	if hint, _, _ := e.RenderedHints(); hint != "" {
		line += " Hint: " + hint
	}
	if e.RequestID != "" {
		line += " request_id: " + e.RequestID
	}
	return line
}
