package toolerrgin

import (
	"errors"
	"net/http"

	"github.com/gin-gonic/gin"
	"github.com/gin-gonic/gin/binding"
	"github.com/go-playground/validator/v10"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// mapError is the one mapping from an error of c.Errors (or a Tool's
// returned error) to the error the middleware renders. status is the
// status the handlers chose (gin's default is 200): the one
// c.AbortWithError(status, err) wrote.
//
// The rows, most specific first:
//
//   - a *toolerr.Error anywhere in the chain: as is (its detail, field,
//     details and its code's status), whatever status was written;
//   - validator.ValidationErrors (gin's binding validates with
//     go-playground/validator), also inside binding.SliceValidationError:
//     VALIDATION_FAILED, one violation per failing field (validation.go);
//   - a JSON decoding error of binding (*json.UnmarshalTypeError,
//     *json.SyntaxError, io.EOF, an unknown property refused):
//     VALIDATION_FAILED, at the field when known (decode.go);
//   - any other error gin's binding reported (ErrorTypeBind), or that
//     ShouldBindJSON or ShouldBindWith returned: the code of the status
//     binding chose (400 VALIDATION_FAILED, 413 for http.MaxBytesReader;
//     VALIDATION_FAILED without one), with no detail: its text names Go
//     types;
//   - any other error with a status of 400 to 499: the local code of that
//     status (classify.LocalCode: what the service says of itself, never
//     an UPSTREAM_* code nor an upstream member), the status kept. Its
//     text is the detail only when the handler marked it public
//     (ErrorTypePublic); a private error's text, gin's default, goes to
//     the log only;
//   - anything else (a status of 500 or more, or none: c.Error(err) alone):
//     the error itself, which the middleware classifies (a cancelled
//     context, a timeout, a refused connection, a typed SDK error its
//     mappers know) or else renders as INTERNAL_ERROR, its text to the
//     log only. A 5xx error's text is never the detail, public or not:
//     the service's own 5xx text is its internals.
//
// ErrorTypeRender (c.Render failed) and ErrorTypeAny are private errors.
func mapError(cl *call, ge *gin.Error, status int) error {
	err := ge.Err
	if _, ok := toolerr.From(err); ok {
		return err
	}
	if e := argumentsError(cl, err); e != nil {
		return e.WithCause(err)
	}
	local := status >= 400 && status < 500
	bind := bindType(ge) || (cl.bindErr != nil && errors.Is(err, cl.bindErr))
	switch {
	case bind && local && status != http.StatusBadRequest:
		return localError(status, "").WithCause(err)
	case bind:
		return toolerr.Default().New(toolerr.CodeValidationFailed,
			"The arguments could not be read into the tool's argument type.").
			WithHint("Correct the arguments against the tool's input schema, then call again.").
			WithCause(err)
	case local:
		detail := ""
		if ge.Type == gin.ErrorTypePublic {
			detail = err.Error() // sanitized by the middleware, as every member
		}
		return localError(status, detail).WithCause(err)
	}
	return err
}

// bindType reports whether gin marked ge as binding's. ErrorTypeAny has
// every bit set, the bind bit too, and says nothing.
func bindType(ge *gin.Error) bool {
	return ge.Type != gin.ErrorTypeAny && ge.IsType(gin.ErrorTypeBind)
}

// localError is the error of a status the service chose itself.
func localError(status int, detail string) *toolerr.Error {
	return toolerr.Default().New(classify.LocalCode(status), detail).WithStatus(status)
}

// argumentError reports whether ge is an error of the call's arguments:
// binding's, a validator's or a JSON decoder's.
func argumentError(ge *gin.Error) bool {
	if bindType(ge) {
		return true
	}
	var ve validator.ValidationErrors
	var se binding.SliceValidationError
	return errors.As(ge.Err, &ve) || errors.As(ge.Err, &se) || decodeFailure(ge.Err)
}

// argumentsError is the VALIDATION_FAILED of a validator's or a JSON
// decoder's error, or nil for any other error.
func argumentsError(cl *call, err error) *toolerr.Error {
	var ve validator.ValidationErrors
	if errors.As(err, &ve) {
		return validationFailed(cl.bound(), cl.body.kept(), "", ve)
	}
	var se binding.SliceValidationError
	if errors.As(err, &se) {
		return sliceValidationFailed(cl.bound(), se)
	}
	return decodeError(err)
}
