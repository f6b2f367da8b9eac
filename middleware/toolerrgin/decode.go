package toolerrgin

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// A JSON body binding could not decode (gin's JSON binding decodes with
// encoding/json, unless built with another codec): VALIDATION_FAILED at
// the value's field when the decoder names it.

// decodeFailure reports whether err is a JSON decoder's failure.
func decodeFailure(err error) bool {
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	_, unknown := unknownField(err)
	return errors.As(err, &te) || errors.As(err, &se) || errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || unknown
}

// unknownField returns the property a decoder with
// DisallowUnknownFields refused (binding.EnableDecoderDisallowUnknownFields):
// encoding/json says so in words only, and without the property's path.
func unknownField(err error) (string, bool) {
	const prefix = "json: unknown field "
	msg := err.Error()
	if !strings.HasPrefix(msg, prefix) {
		return "", false
	}
	name, uerr := strconv.Unquote(msg[len(prefix):])
	return name, uerr == nil
}

// decodeError is the VALIDATION_FAILED of a JSON decoder's failure, nil
// for any other error.
func decodeError(err error) *toolerr.Error {
	reg := toolerr.Default()
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		// encoding/json names the field by its JSON names, dotted.
		field := classify.FieldPointer(te.Field)
		want := jsonType(te.Type)
		reason := "must be " + article(want)
		return reg.New(toolerr.CodeValidationFailed, sentence(field, reason+".")).
			WithField(field).WithAllowedValues(want).
			WithViolations(toolerr.Violation{Field: field, Reason: reason, AllowedValues: want}).
			WithHint(capitalize(fmt.Sprintf("send %s as %s, then call again.", displayName(field), article(want))))
	case errors.As(err, &se):
		return reg.New(toolerr.CodeValidationFailed,
			fmt.Sprintf("The request body is not valid JSON (at byte %d).", se.Offset)).
			WithHint("Send the arguments as one JSON object, then call again.")
	case decodeUnknown(err):
		name, _ := unknownField(err)
		return reg.New(toolerr.CodeValidationFailed,
			fmt.Sprintf("The arguments hold a property the tool does not take: %q.", name)).
			WithViolations(toolerr.Violation{Reason: fmt.Sprintf("has the unknown property %q", name)}).
			WithHint(fmt.Sprintf("Remove %q or correct its name against the tool's input schema, then call again.", name))
	case errors.Is(err, io.EOF):
		return reg.New(toolerr.CodeValidationFailed, "The request body is empty.").
			WithHint("Send the arguments as a JSON object, then call again.")
	case errors.Is(err, io.ErrUnexpectedEOF):
		return reg.New(toolerr.CodeValidationFailed, "The request body ends before its JSON value does.").
			WithHint("Send the arguments as one complete JSON object, then call again.")
	}
	return nil
}

// decodeUnknown reports whether err is a refused unknown property.
func decodeUnknown(err error) bool {
	_, ok := unknownField(err)
	return ok
}

// jsonType names the JSON type a Go type decodes from.
func jsonType(t reflect.Type) string {
	if t == nil {
		return "value"
	}
	switch deref(t).Kind() {
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.String:
		return "string"
	case reflect.Slice, reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	}
	return "value"
}

// article puts "a" or "an" before a JSON type's name.
func article(t string) string {
	switch t {
	case "integer", "array", "object":
		return "an " + t
	}
	return "a " + t
}
