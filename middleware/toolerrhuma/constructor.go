package toolerrhuma

import (
	"errors"
	"net/http"

	"github.com/danielgtaylor/huma/v2"
	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// huma's error model: huma builds every error it sends through two package
// variables, huma.NewError (huma.Error404NotFound and friends, a handler's
// own calls) and huma.NewErrorWithContext (its validation, a handler's
// returned error that is not a huma.StatusError, content negotiation).
// Install replaces both, once per process, with the constructors below.
// They build a *toolerr.Error:
//
//   - a *toolerr.Error in the chain of any of errs is kept as it is (huma
//     passes a handler's returned error with status 500);
//   - huma's *huma.ErrorDetail values (its validation errors) become
//     violations of VALIDATION_FAILED, with repairs where the operation's
//     body schema gives them (repair.go);
//   - any other status is the code of the status in the core's local
//     status rows (classify.LocalCode: a service's own failure, never an
//     UPSTREAM_* code), its status the code's;
//   - a handler's plain error (huma's "unexpected error occurred") is
//     classified as the middleware classifies a handler's error, its text
//     for the logs only.
//
// A status below 400 (huma.Status304NotModified) is not an error: it keeps
// huma's own model.

// newError is huma.NewError once Install has run: an error not yet bound to
// a request (huma's transformer binds it, bind.go).
func newError(status int, msg string, errs ...error) huma.StatusError {
	cfg := defaults()
	if status != 0 && (status < 400 || status > 599) {
		return notAnError(status, msg)
	}
	e, _, _ := build(nil, cfg, status, msg, errs)
	return &statusError{err: e, cfg: cfg}
}

// newErrorWithContext is huma.NewErrorWithContext once Install has run: the
// error, bound to the request of ctx.
func newErrorWithContext(ctx huma.Context, status int, msg string, errs ...error) huma.StatusError {
	if ctx == nil {
		return newError(status, msg, errs...)
	}
	if status < 400 || status > 599 {
		return notAnError(status, msg)
	}
	st := stateOf(ctx.Context())
	cfg := defaults()
	if st != nil {
		cfg = st.in.cfg
	}
	e, report, details := build(ctx, cfg, status, msg, errs)
	if st != nil && details {
		e = st.in.repair(st, e)
	}
	return bind(ctx, cfg, e, report)
}

// notAnError is what huma gets for a status that is no error: its own model.
func notAnError(status int, msg string) huma.StatusError {
	return &huma.ErrorModel{Status: status, Title: http.StatusText(status), Detail: msg}
}

// build returns the toolerr error of huma's (status, msg, errs); the
// handler's own plain error when that is what huma passed (the toolerr
// middleware classifies and logs that one itself); and whether the error
// lists huma's details as violations, which repairs may replace. ctx is nil
// for an error built outside a request.
func build(ctx huma.Context, cfg *config, status int, msg string, errs []error) (e *toolerr.Error, plain error, details bool) {
	for _, err := range errs {
		if e, ok := toolerr.From(err); ok {
			return e, nil, false
		}
	}
	var ds []*huma.ErrorDetail
	var others []error
	for _, err := range errs {
		if err == nil {
			continue
		}
		var d huma.ErrorDetailer
		if errors.As(err, &d) && d.ErrorDetail() != nil {
			ds = append(ds, d.ErrorDetail())
			continue
		}
		others = append(others, err)
	}
	if status == 0 {
		// huma.NewError(0, "") is how huma learns the error type for its
		// OpenAPI document: any error will do.
		status = http.StatusInternalServerError
	}
	if status == http.StatusInternalServerError && len(ds) == 0 && len(others) == 1 && ctx != nil {
		// A handler's returned plain error: classified as the middleware
		// classifies one, its text never rendered.
		m := ctx.Method()
		if e, ok := cfg.classifier.HandlerError(ctx.Context(), others[0], m, idempotent(m)); ok {
			return e, others[0], false
		}
		return cfg.registry.New(toolerr.CodeInternal, "").WithCause(others[0]), others[0], false
	}
	code := classify.LocalCode(status)
	if code == "" {
		code = toolerr.CodeInternal
	}
	details = len(ds) > 0 && code == toolerr.CodeValidationFailed
	if details {
		e = validationError(cfg.registry, msg, ds)
	} else {
		e = cfg.registry.New(code, msg)
		for _, d := range ds {
			others = append(others, d)
		}
	}
	if len(others) > 0 {
		e = e.WithCause(errors.Join(others...))
	}
	return e, nil, details
}

// idempotent reports whether a call with method may be repeated safely.
func idempotent(method string) bool {
	switch method {
	case http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace, http.MethodPut, http.MethodDelete:
		return true
	}
	return false
}
