package toolerrhuma

import (
	"github.com/danielgtaylor/huma/v2"
	"github.com/toolerr/toolerr"
)

// statusError is the huma.StatusError that huma's constructors build once
// [Install] has run: a *toolerr.Error huma can write. It is not a struct
// huma's schema link transformer knows (its schema is a reference to the
// toolerr problem schema, whose type it does not rewrite), so huma
// transformers pass it through, and it marshals as toolerr's problem
// object.
type statusError struct {
	// err is the toolerr error; never nil.
	err *toolerr.Error
	// bound says that err was completed for one request (ids, tool,
	// instance) and sanitized: it renders as it is.
	bound bool
	// reported says that the toolerr middleware serving the request has
	// err and renders it in place of huma's response: huma's rendering is
	// held back and dropped, so it carries the code and request id only.
	reported bool
	// cfg cleans an error that was never bound to a request (one built by
	// huma.NewError outside a transformer's reach).
	cfg *config
}

var (
	_ huma.StatusError       = (*statusError)(nil)
	_ huma.ContentTypeFilter = (*statusError)(nil)
	_ huma.SchemaProvider    = (*statusError)(nil)
)

// Error returns the toolerr error's "CODE: detail", for Go logs.
func (e *statusError) Error() string { return e.err.Error() }

// GetStatus returns the status of the error's code, the response's status.
func (e *statusError) GetStatus() int { return e.err.Status }

// Unwrap returns the toolerr error, so that toolerr.From and errors.As find
// it, and the middleware renders it as it is.
func (e *statusError) Unwrap() error { return e.err }

// ContentType makes huma send the problem rendering as
// application/problem+json, whatever the client negotiated: huma marshals
// it with its JSON format (the "json" suffix format of every huma config),
// and toolerr has one JSON rendering.
func (e *statusError) ContentType(string) string { return toolerr.ContentTypeProblem }

// MarshalJSON renders the problem object. An error never bound to a
// request (huma.NewError's, written for an operation out of the reach of
// Install's transformer) is sanitized here and carries no request id.
func (e *statusError) MarshalJSON() ([]byte, error) {
	if e.bound {
		return e.err.AppendJSON(nil), nil
	}
	cfg := e.cfg
	if cfg == nil {
		cfg = defaults()
	}
	if e.reported {
		return cfg.registry.New(e.err.Code, "").WithRequestID(e.err.RequestID).AppendJSON(nil), nil
	}
	// No request id of its own: under a toolerr middleware, a body with
	// an id that is not the request's reads as relayed from a downstream
	// toolerr service; without one, the middleware fills the request's.
	return e.err.MapText(cfg.sanitizer.CleanText).WithRequestID("").AppendJSON(nil), nil
}

// Schema describes the error in huma's OpenAPI document: a reference to the
// toolerr problem schema, which it adds to the document's registry.
func (e *statusError) Schema(r huma.Registry) *huma.Schema {
	return problemRef(r)
}
