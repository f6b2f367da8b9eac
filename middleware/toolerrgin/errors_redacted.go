package toolerrgin

import (
	"context"

	"github.com/gin-gonic/gin"

	"github.com/toolerr/toolerr/internal/reqscope"
)

// redactedError stands in c.Errors for an error whose text held secrets
// or payment data: gin's logger and otelgin record the text of c.Errors
// (otelgin as the span's status and exception events), and a handler's
// error may carry a card number it was given. It unwraps to the error
// itself, so errors.Is and errors.As see what the handler returned.
type redactedError struct {
	text string
	err  error
}

func (e *redactedError) Error() string { return e.text }

func (e *redactedError) Unwrap() error { return e.err }

// redactErrors replaces the text of every error of c.Errors with its
// redacted text, through the request scope's redact filter (the
// middleware's sanitizer: secrets and payment data replaced, frames and
// line breaks kept). It runs after the error was reported, so the
// mapping sees the errors as they were.
func redactErrors(ctx context.Context, c *gin.Context) {
	for _, ge := range c.Errors {
		if ge == nil || ge.Err == nil {
			continue
		}
		text := ge.Err.Error()
		if out, ok := reqscope.Redact(ctx, text); ok && out != text {
			ge.Err = &redactedError{text: out, err: ge.Err}
		}
	}
}
