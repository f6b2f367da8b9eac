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

// MetaProblem is the _meta key of every failed call's result that holds
// the problem object. Clients validate structuredContent against a tool's
// outputSchema (the TypeScript SDK throws when it does not match), never
// _meta, so the problem object always travels here; it is also the
// structuredContent of tools that declare no outputSchema.
const MetaProblem = "io.toolerr/problem"

// result returns the tool result of f: IsError, the summary as the only
// Content, the problem object in _meta ([MetaProblem]) and, when
// structured (the tool declares no outputSchema), as StructuredContent
// too. GetError returns f.
func (f *failure) result(structured bool) *mcp.CallToolResult {
	r := &mcp.CallToolResult{
		Meta:    mcp.Meta{MetaProblem: f.problem},
		Content: []mcp.Content{&mcp.TextContent{Text: f.line}},
	}
	if structured {
		r.StructuredContent = f.problem
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
