package toolerrmcpgo

import (
	"errors"
	"strconv"
	"strings"

	"github.com/toolerr/toolerr"
)

// argProblem is what an error of mcp-go's argument accessors
// (CallToolRequest.RequireString, RequireInt, RequireFloat, RequireBool
// and their slice forms) says: which argument, and whether it is missing
// or of the wrong type.
type argProblem struct {
	key     string // the argument's name
	item    int    // the index of the failing item of a slice argument, or -1
	missing bool   // the argument is absent
	want    string // the JSON type it must have: string, integer, number, boolean or array
	items   string // for want "array", the JSON type of its items
}

// goTypes maps the Go type names of the accessors' messages to JSON types.
var goTypes = map[string]string{"string": "string", "int": "integer", "float64": "number", "bool": "boolean"}

// parseArgumentError reads one of the messages of mcp-go's argument
// accessors:
//
//   - required argument "k" not found
//   - argument "k" is not a string (an int, a float64, a bool)
//   - argument "k" cannot be converted to int (float64, bool)
//   - argument "k" is not a string slice (an int slice, …)
//   - item 3 in argument "k" is not a string, or cannot be converted to int
//
// The key is quoted as Go quotes strings (%q, strconv.Quote), so any key
// reads back; a key quoted any other way, and any other text, is not an
// accessor's message.
func parseArgumentError(msg string) (argProblem, bool) {
	p := argProblem{item: -1}
	rest := msg
	if after, ok := strings.CutPrefix(rest, "required "); ok {
		p.missing = true
		rest = after
	} else if after, ok := strings.CutPrefix(rest, "item "); ok {
		digits, tail, ok := strings.Cut(after, " in ")
		n, err := strconv.Atoi(digits)
		if !ok || err != nil || n < 0 || strconv.Itoa(n) != digits {
			return argProblem{}, false
		}
		p.item, rest = n, tail
	}
	rest, ok := strings.CutPrefix(rest, "argument ")
	if !ok {
		return argProblem{}, false
	}
	quoted, err := strconv.QuotedPrefix(rest)
	if err != nil || !strings.HasPrefix(quoted, `"`) {
		return argProblem{}, false
	}
	if p.key, err = strconv.Unquote(quoted); err != nil || strconv.Quote(p.key) != quoted {
		return argProblem{}, false // %q quotes one way only
	}
	rest = rest[len(quoted):]
	if p.missing {
		return p, rest == " not found"
	}
	var goType string
	switch {
	case strings.HasPrefix(rest, " cannot be converted to "):
		goType = strings.TrimPrefix(rest, " cannot be converted to ")
	case strings.HasPrefix(rest, " is not a "):
		goType = strings.TrimPrefix(rest, " is not a ")
	case strings.HasPrefix(rest, " is not an "):
		goType = strings.TrimPrefix(rest, " is not an ")
	default:
		return argProblem{}, false
	}
	if elem, slice := strings.CutSuffix(goType, " slice"); slice && p.item < 0 {
		p.want, p.items = "array", goTypes[elem]
		return p, p.items != ""
	}
	p.want = goTypes[goType]
	return p, p.want != ""
}

// findArgumentError returns the accessor's message in err's chain.
func findArgumentError(err error) (argProblem, bool) {
	for err != nil {
		if p, ok := parseArgumentError(err.Error()); ok {
			return p, true
		}
		err = errors.Unwrap(err)
	}
	return argProblem{}, false
}

// field returns the JSON pointer of the argument, or of its item.
func (p argProblem) field() string {
	ptr := "/" + strings.ReplaceAll(strings.ReplaceAll(p.key, "~", "~0"), "/", "~1")
	if p.item >= 0 {
		ptr += "/" + strconv.Itoa(p.item)
	}
	return ptr
}

// toolerrError is the VALIDATION_FAILED of p, in the words argcheck uses
// for the same violations: a missing argument is the user's to give; a
// value of the wrong type is to be sent again as the type it must have,
// which is all that is known of it (no value is suggested).
func (p argProblem) toolerrError(reg *toolerr.Registry) *toolerr.Error {
	field := p.field()
	name := strings.TrimPrefix(field, "/")
	if p.missing {
		return reg.New(toolerr.CodeValidationFailed, name+" is required.").
			WithField(field).
			WithViolations(toolerr.Violation{Field: field, Reason: "is required"}).
			WithHint("Ask the user for " + name + ". Then call again.")
	}
	allowed := map[string]any{"type": p.want}
	noun := article(p.want)
	if p.want == "array" {
		allowed["items"] = map[string]any{"type": p.items}
		noun = "an array of " + p.items + "s"
	}
	reason := "must be " + noun
	return reg.New(toolerr.CodeValidationFailed, name+" "+reason+".").
		WithField(field).
		WithAllowedValues(allowed).
		WithViolations(toolerr.Violation{Field: field, Reason: reason, AllowedValues: allowed}).
		WithHint("Send " + name + " as " + noun + ", then call again.")
}

// article puts "a" or "an" before a JSON type name.
func article(t string) string {
	if t == "integer" || t == "array" {
		return "an " + t
	}
	return "a " + t
}
