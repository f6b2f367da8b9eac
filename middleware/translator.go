package middleware

import (
	"bytes"
	"context"
	"net/http"

	"github.com/toolerr/toolerr/classify"
)

// Captured is a raw error response that a handler wrote: its status, its
// headers and the first bytes of its body, up to the body cap.
type Captured struct {
	// Method is the method of the request the response answers.
	Method string
	// Status is the status the handler wrote (400 or more).
	Status int
	// Header is a copy of the response headers the handler set.
	Header http.Header
	// Body is the buffered body, at most the body cap.
	Body []byte
	// Truncated is true when the body was longer than the cap.
	Truncated bool
	// Vendor is the vendor the handler named with toolerr.RecordVendor, or "".
	Vendor string
}

// Translator reads a vendor's error response into an outcome the classifier
// understands: the vendor code, message, field, request id and delays.
// Implementations must be safe for concurrent use and must not keep Body.
// ok is false when the translator does not recognise the response; the
// middleware then falls back to the status, the headers and the body text.
type Translator interface {
	Translate(ctx context.Context, c Captured) (o classify.Outcome, ok bool)
}

// TranslatorFunc adapts a function to [Translator].
type TranslatorFunc func(ctx context.Context, c Captured) (classify.Outcome, bool)

// Translate calls f.
func (f TranslatorFunc) Translate(ctx context.Context, c Captured) (classify.Outcome, bool) {
	return f(ctx, c)
}

// plainOutcome is the outcome of a response no translator recognised: its
// status and headers, and as message the body's text, or for a JSON body
// its most likely message member. The classifier's message filter (the
// sanitizer) decides what of the message may be shown.
func plainOutcome(c Captured) classify.Outcome {
	o := classify.Outcome{
		Method: c.Method,
		Status: c.Status,
		Header: c.Header,
		Vendor: c.Vendor,
	}
	body := bytes.TrimSpace(c.Body)
	if len(body) > 0 && body[0] == '{' && !c.Truncated {
		if msg, ok := jsonMessage(body); ok {
			o.Message = msg
			return o
		}
	}
	o.Message = string(body)
	return o
}
