package mcpcore

import (
	"encoding/json"

	"github.com/toolerr/toolerr"
)

// MetaProblem is the _meta key of every failed call's result that holds
// the problem object. Clients validate structuredContent against a tool's
// outputSchema (the TypeScript SDK throws when it does not match), never
// _meta, so the problem object always travels here; it is also the
// structuredContent of tools that declare no outputSchema.
const MetaProblem = "io.toolerr/problem"

// Failure is a tool call's error, ready to send: the final toolerr error,
// its problem object and its observation text. As a Go error its text is
// the observation, which is what an SDK puts into a result's content when
// a handler returns it.
type Failure struct {
	// Err is the sanitized error, with the call's tool and ids.
	Err *toolerr.Error
	// Problem is Err's problem object (JSON).
	Problem json.RawMessage
	// Line is Err's observation (toolerr.Error.AppendObservation): code,
	// category, retryability, field, allowed and suggested values, hint,
	// intent and request id, one per line. Agent runtimes hand the model
	// an error result's text content only, so this text is complete.
	Line string
}

// NewFailure renders e.
func NewFailure(e *toolerr.Error) *Failure {
	return &Failure{
		Err:     e,
		Problem: e.AppendJSON(make([]byte, 0, 512)),
		Line:    string(e.AppendObservation(make([]byte, 0, 256), toolerr.ObservationOptions{})),
	}
}

// Error returns the observation.
func (f *Failure) Error() string { return f.Line }

// Unwrap returns the toolerr error, so that toolerr.From and errors.As
// find it.
func (f *Failure) Unwrap() error { return f.Err }
