package toolerrecho

import (
	"encoding/json"
	"errors"
	"reflect"
	"strings"

	"github.com/labstack/echo/v4"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// bindError adds what a bind error of err tells to e, a VALIDATION_FAILED
// of c.Bind: echo wraps the JSON decoder's error in an *echo.HTTPError 400.
//
//   - *json.UnmarshalTypeError: the field (a JSON pointer) and the type it
//     must have, as a violation with that type as its allowed_values;
//   - *json.SyntaxError: the body is not JSON; the violation is the
//     arguments as a whole;
//   - *echo.BindingError (echo's parameter binders): the parameter.
//
// Any other error leaves e as it is.
func bindError(e *toolerr.Error, err error) *toolerr.Error {
	var (
		typeErr   *json.UnmarshalTypeError
		syntaxErr *json.SyntaxError
		bindErr   *echo.BindingError
	)
	switch {
	case errors.As(err, &typeErr):
		field := classify.FieldPointer(typeErr.Field)
		want := jsonType(typeErr.Type)
		if want == "" {
			return e.WithField(field)
		}
		reason := "must be " + article(want)
		if got := jsonValue(typeErr.Value); got != "" {
			reason += ", not " + article(got)
		}
		name, detail := typeErr.Field, typeErr.Field
		if name == "" {
			name, detail = "the arguments", "The arguments"
		}
		return e.WithField(field).
			WithDetail(detail + " " + reason + ".").
			WithHint("Send " + name + " as " + article(want) + ".").
			WithViolations(toolerr.Violation{Field: field, Reason: reason, AllowedValues: map[string]any{"type": want}})
	case errors.As(err, &syntaxErr):
		return e.WithDetail("The request body is not valid JSON: " + syntaxErr.Error() + ".").
			WithHint("Send the arguments as one valid JSON object.").
			WithViolations(toolerr.Violation{Field: "", Reason: "must be valid JSON"})
	case errors.As(err, &bindErr) && bindErr.Field != "":
		field := classify.FieldPointer(bindErr.Field)
		reason := "is invalid"
		if msg, ok := bindErr.Message.(string); ok && msg != "" {
			reason = msg
		}
		return e.WithField(field).WithViolations(toolerr.Violation{Field: field, Reason: reason})
	}
	return e
}

// jsonType returns the JSON Schema type of a Go type the JSON decoder
// could not fill, or "" when it takes any.
func jsonType(t reflect.Type) string {
	if t == nil {
		return ""
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.String:
		return "string"
	case reflect.Bool:
		return "boolean"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	}
	return ""
}

// jsonValue names the JSON type of the value the decoder found, from its
// description ("string", "number 1.5", "bool", "array", "object").
func jsonValue(desc string) string {
	word, _, _ := strings.Cut(desc, " ")
	if word == "bool" {
		return "boolean"
	}
	return word
}

// article puts "a" or "an" before a type name.
func article(s string) string {
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) {
		return "an " + s
	}
	return "a " + s
}
