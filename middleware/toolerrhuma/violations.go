package toolerrhuma

import (
	"strings"

	"github.com/danielgtaylor/huma/v2"
	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// huma's validation errors (*huma.ErrorDetail: Message, Location, Value)
// become toolerr violations. A location names where the value was:
//
//   - "body" and "body.<path>": a field of the request body, as a JSON
//     pointer: "body.limit" is "/limit", "body.items[2].name" is
//     "/items/2/name", "body" alone is "" (the body as a whole);
//   - "path.<name>", "query.<name>", "header.<name>", "cookie.<name>": a
//     parameter, kept as huma wrote it ("query.limit"), so that a
//     parameter is never mistaken for a body field: a body field always
//     starts with "/", a parameter never does.
//
// The value huma echoes is not kept: the agent sent it, and it may be a
// secret.

// bodyPrefix is huma's location of the request body.
const bodyPrefix = "body"

// fieldOf returns the violation field of a huma location, and whether it is
// a field of the request body.
func fieldOf(location string) (field string, body bool) {
	switch {
	case location == bodyPrefix:
		return "", true
	case strings.HasPrefix(location, bodyPrefix+"."):
		return classify.FieldPointer(location[len(bodyPrefix)+1:]), true
	case strings.HasPrefix(location, bodyPrefix+"["):
		return classify.FieldPointer(location[len(bodyPrefix):]), true
	}
	return location, false
}

// violationsOf returns the violations of huma's details, and whether any
// is in the request body.
func violationsOf(details []*huma.ErrorDetail) (vs []toolerr.Violation, inBody bool) {
	vs = make([]toolerr.Violation, 0, len(details))
	for _, d := range details {
		field, body := fieldOf(d.Location)
		inBody = inBody || body
		vs = append(vs, toolerr.Violation{Field: field, Reason: d.Message})
	}
	return vs, inBody
}

// validationError is VALIDATION_FAILED listing huma's details: the top-level
// field is the first violation's, and the detail names it in huma's terms.
func validationError(reg *toolerr.Registry, msg string, details []*huma.ErrorDetail) *toolerr.Error {
	vs, _ := violationsOf(details)
	if len(vs) > toolerr.MaxViolations {
		vs = vs[:toolerr.MaxViolations]
	}
	first := details[0]
	detail := first.Message
	if first.Location != "" {
		detail = first.Location + ": " + detail
	}
	if msg != "" {
		detail = msg + ": " + detail
	}
	e := reg.New(toolerr.CodeValidationFailed, detail).WithViolations(vs...)
	if vs[0].Field != "" {
		e = e.WithField(vs[0].Field)
	}
	return e
}
