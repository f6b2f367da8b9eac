package argcheck

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"strconv"
	"strings"

	"github.com/toolerr/toolerr"
)

// DecodeError is the VALIDATION_FAILED of a JSON decoder's failure, the
// one the JSON binders of web frameworks (gin's binding, echo's Bind) and
// hand-written handlers get from encoding/json, and true; for any other
// error it is nil and false. The decoder's own message is the error's
// cause, for the log, and never its text:
//
//   - *json.UnmarshalTypeError: the value's field as a JSON pointer, and
//     the JSON type it must have as allowed_values ({"type":"integer"},
//     the schema fragment argcheck's own type violations carry);
//   - *json.SyntaxError: the body is not JSON, with the byte offset;
//   - io.EOF and io.ErrUnexpectedEOF: the body is empty, or ends inside
//     its value;
//   - a property refused by Decoder.DisallowUnknownFields, which
//     encoding/json says in words only: the property's name.
//
// reg nil means toolerr.Default().
func DecodeError(reg *toolerr.Registry, err error) (*toolerr.Error, bool) {
	if err == nil {
		return nil, false
	}
	if reg == nil {
		reg = toolerr.Default()
	}
	var te *json.UnmarshalTypeError
	var se *json.SyntaxError
	switch {
	case errors.As(err, &te):
		field := "" // the arguments as a whole
		if te.Field != "" {
			field = joinPointer(strings.Split(te.Field, ".")) // encoding/json joins nested names with dots
		}
		want := jsonTypeOf(te.Type)
		name := displayName(field)
		reason := "must be " + article(want)
		allowed := map[string]any{"type": want}
		switch got, num, _ := strings.Cut(te.Value, " "); {
		case got == "number" && want == "integer" && strings.Contains(num, "."):
			reason += ", not a fraction"
		case got == "number" && want == "integer" && strings.HasPrefix(num, "-") && unsigned(te.Type):
			reason, allowed["minimum"] = "must be an integer of 0 or more", 0
		case got == "number" && want == "integer":
			// An integer too large for the tool's type: the type says
			// no more than that.
		case decodedType(got) != "" && decodedType(got) != want:
			reason += ", not " + article(decodedType(got))
		}
		v := toolerr.Violation{Field: field, Reason: reason}
		detail := name + " " + reason + "." // a field's name as the client wrote it: "qty must be …"
		if field == "" {
			detail = capitalize(detail)
		}
		hint := fmt.Sprintf("Send %s as %s, then call again.", name, article(want))
		if field != "" {
			// Nothing here derives the value: the user says what it is.
			hint = fmt.Sprintf("Send %s as %s if what the user gave plainly is one; otherwise ask the user for it. Then call again.",
				name, article(want))
		}
		e := reg.New(toolerr.CodeValidationFailed, detail).
			WithField(field).
			WithHint(hint)
		if want != "value" {
			v.AllowedValues = allowed
			e = e.WithAllowedValues(allowed)
		}
		return e.WithViolations(v).WithCause(err), true
	case errors.As(err, &se):
		return reg.New(toolerr.CodeValidationFailed,
			"The request body is not valid JSON (at byte "+strconv.FormatInt(se.Offset, 10)+").").
			WithHint("Send the arguments as one JSON object, then call again.").
			WithViolations(toolerr.Violation{Reason: "must be valid JSON"}).WithCause(err), true
	case errors.Is(err, io.ErrUnexpectedEOF):
		return reg.New(toolerr.CodeValidationFailed, "The request body ends before its JSON value does.").
			WithHint("Send the arguments as one complete JSON object, then call again.").
			WithViolations(toolerr.Violation{Reason: "must be one complete JSON value"}).WithCause(err), true
	case errors.Is(err, io.EOF):
		return reg.New(toolerr.CodeValidationFailed, "The request body is empty.").
			WithHint("Send the arguments as a JSON object, then call again.").
			WithViolations(toolerr.Violation{Reason: "must not be empty"}).WithCause(err), true
	}
	if name, ok := unknownProperty(err); ok {
		return reg.New(toolerr.CodeValidationFailed,
			fmt.Sprintf("The arguments hold a property the tool does not take: %q.", name)).
			WithViolations(toolerr.Violation{Reason: fmt.Sprintf("has the unknown property %q", name)}).
			WithHint(fmt.Sprintf("Correct %q to the name of the tool's property it stands for, if one plainly does; otherwise ask the user where it belongs. Never drop it. Then call again.", name)).
			WithCause(err), true
	}
	return nil, false
}

// unknownProperty returns the property a decoder with
// DisallowUnknownFields refused: encoding/json says so in words only
// ("json: unknown field \"x\""), without the property's path.
func unknownProperty(err error) (string, bool) {
	const prefix = "json: unknown field "
	msg := err.Error()
	if !strings.HasPrefix(msg, prefix) {
		return "", false
	}
	name, uerr := strconv.Unquote(msg[len(prefix):])
	return name, uerr == nil
}

// unsigned reports whether t (or what it points to) is an unsigned
// integer type.
func unsigned(t reflect.Type) bool {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return false
	}
	switch t.Kind() {
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return false
}

// decodedType names the JSON type of the value the decoder found, from
// the first word of its description in UnmarshalTypeError.Value
// ("string", "number 1.5", "bool", "array", "object"); "" when it says
// none.
func decodedType(word string) string {
	switch word {
	case "bool":
		return "boolean"
	case "string", "number", "array", "object":
		return word
	}
	return ""
}

// jsonTypeOf names the JSON type a Go type decodes from; "value" when it
// takes any.
func jsonTypeOf(t reflect.Type) string {
	for t != nil && t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == nil {
		return "value"
	}
	switch t.Kind() {
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
