package toolerrecho

import (
	"context"
	"errors"
	"net/http"

	"github.com/labstack/echo/v4"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/middleware"
)

// mapper turns the error an echo chain returned into the error the
// middleware renders. It is immutable and shared by all requests.
type mapper struct {
	routes *routeSet // which requests reached a route (route.go)
	// local reads an echo status as the middleware reads a status the
	// service wrote itself: the local rows of the status table
	// (classify.LocalCode), a Retry-After the handler set included.
	local *classify.Classifier
}

// newMapper builds a mapper over the built-in codes.
func newMapper(routes *routeSet) *mapper {
	return &mapper{routes: routes, local: classify.New(toolerr.Default())}
}

// toolError returns what to hand to the middleware for err, the error c's
// chain returned. The middleware sanitizes every text of it and completes
// it with the request's ids and tool.
//
//   - A *toolerr.Error anywhere in the chain: err as it is.
//   - No *echo.HTTPError in the chain (a plain error, a context error, a
//     panic echo's Recover turned into an error): err as it is, for the
//     middleware to classify or to make INTERNAL_ERROR of, its text for
//     the log only.
//   - An *echo.HTTPError whose cause tells more than its status (the
//     request's context ended, the body was cut by a size limit, an
//     outbound call failed): err as it is, for the middleware to classify
//     by that cause.
//   - Any other *echo.HTTPError: its status, read by the local rows of the
//     status table (ErrNotFound of a path no route matches is
//     TOOL_NOT_FOUND, the echo's routes reported to the middleware for it
//     to list the nearest; ErrMethodNotAllowed METHOD_NOT_ALLOWED, a bind error
//     VALIDATION_FAILED with its field); a 4xx keeps its status and its
//     string Message as the detail; a 5xx's message, and the Internal
//     error of any, go to the log only.
func (m *mapper) toolError(c echo.Context, err error) error {
	if _, ok := toolerr.From(err); ok {
		return err
	}
	he := httpError(err)
	if he == nil || causeDecides(err) {
		return err
	}
	if inner, ok := he.Message.(error); ok {
		if _, ok := toolerr.From(inner); ok {
			return inner // echo.NewHTTPError(409, toolerrErr)
		}
	}
	status := he.Code
	if status < 400 || status > 599 {
		status = http.StatusInternalServerError // an error is never a success
	}
	if status == http.StatusNotFound && m.routes.tool(c) == "" {
		// The echo's routes, for the middleware to list the nearest.
		middleware.ReportRoutes(c.Request().Context(), Routes(c.Echo()))
		return toolerr.Default().New(toolerr.CodeToolNotFound, "").WithCause(err)
	}
	e := m.localError(c.Request(), c.Response().Header(), status)
	if status < 500 {
		if msg, ok := he.Message.(string); ok && msg != "" && msg != http.StatusText(status) {
			e = e.WithDetail(msg)
		}
		if e.Code == toolerr.CodeValidationFailed {
			e = bindError(e, err)
		}
	}
	// The Allow header of a 405, set by echo's router, is kept by the
	// middleware, its methods the error's allowed_values.
	return e.WithCause(err)
}

// localError is the error of a failure with the given status that the
// service answered itself: a 4xx keeps the status the application chose.
func (m *mapper) localError(r *http.Request, h http.Header, status int) *toolerr.Error {
	o := classify.Outcome{Method: r.Method, Status: status, Header: h, Local: true,
		Idempotent: r.Header.Get("Idempotency-Key") != ""}
	e := m.local.Build(m.local.Decide(o), o)
	if status < 500 && e.Status != status {
		e = e.WithStatus(status)
	}
	return e
}

// httpError returns the *echo.HTTPError of err as echo's own error handler
// reads it (one wrapped as another's Internal error wins), or the one a
// *echo.BindingError carries, or nil.
func httpError(err error) *echo.HTTPError {
	var he *echo.HTTPError
	if errors.As(err, &he) {
		if inner, ok := he.Internal.(*echo.HTTPError); ok {
			return inner
		}
		return he
	}
	var be *echo.BindingError
	if errors.As(err, &be) && be.HTTPError != nil {
		return be.HTTPError
	}
	return nil
}

// causeDecides reports whether err's chain holds a cause that explains the
// failure better than an echo status: the request's context ending
// (CANCELLED, TOOL_TIMEOUT), a body over http.MaxBytesReader's limit
// (PAYLOAD_TOO_LARGE) or a failed outbound call (the UPSTREAM_* codes).
func causeDecides(err error) bool {
	var tooLarge *http.MaxBytesError
	return errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) ||
		errors.As(err, &tooLarge) || classify.Outbound(err)
}
