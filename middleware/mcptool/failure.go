package mcptool

import (
	"encoding/json"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/toolerr/toolerr"
)

// failure is a tool call's error, ready to send: the final toolerr error,
// its problem object and its summary (the observation text). As a Go error its text is
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

// Error returns the summary: the error's observation.
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

// summary is the text of e for models that read Content only: its
// observation (toolerr.Error.AppendObservation), which keeps code,
// category, retryability, field, allowed and suggested values, hint,
// intent and request id, one per line.
func summary(e *toolerr.Error) string {
	return string(e.AppendObservation(make([]byte, 0, 256), toolerr.ObservationOptions{}))
}
