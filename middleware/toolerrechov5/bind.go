package toolerrechov5

import (
	"errors"

	"github.com/labstack/echo/v5"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/argcheck"
	"github.com/toolerr/toolerr/classify"
)

// bindError is the VALIDATION_FAILED of a bind error err, e's status
// kept: echo wraps the JSON decoder's error in an *echo.HTTPError 400,
// which argcheck.DecodeError reads (the field as a JSON pointer and the
// JSON type it must have, a syntax error, an empty or cut body); an
// *echo.BindingError of echo's parameter binders names the parameter. Any
// other error leaves e as it is.
func bindError(e *toolerr.Error, err error) *toolerr.Error {
	if d, ok := argcheck.DecodeError(nil, err); ok {
		return d.WithStatus(e.Status)
	}
	var bindErr *echo.BindingError
	if errors.As(err, &bindErr) && bindErr.Field != "" {
		field := classify.FieldPointer(bindErr.Field)
		reason := "is invalid"
		if bindErr.HTTPError != nil && bindErr.Message != "" {
			reason = bindErr.Message
		}
		return e.WithField(field).WithViolations(toolerr.Violation{Field: field, Reason: reason})
	}
	return e
}
