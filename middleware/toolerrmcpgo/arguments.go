package toolerrmcpgo

import (
	"bytes"
	"encoding/json"
	"errors"
	"strconv"
	"strings"

	"github.com/mark3labs/mcp-go/mcp"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/argcheck"
)

// rawArguments returns the arguments of req as the client sent them.
func rawArguments(req *mcp.CallToolRequest) json.RawMessage {
	if len(req.Params.RawArguments) > 0 {
		return req.Params.RawArguments
	}
	if req.Params.Arguments == nil {
		return nil
	}
	b, err := json.Marshal(req.Params.Arguments)
	if err != nil {
		return nil
	}
	return b
}

// schemaViolations returns the VALIDATION_FAILED of package argcheck when
// args break the input schema input (every violation, its pointer,
// allowed values and repair, and example_request), or nil when they keep
// it or the schema does not compile.
func (a *adapter) schemaViolations(tool string, input []byte, args json.RawMessage) *toolerr.Error {
	if len(input) == 0 {
		return nil
	}
	s := a.core.Schema(tool, input)
	if s == nil {
		return nil
	}
	e, _ := toolerr.From(s.CheckJSON(args))
	return e
}

// handlerArgumentsError returns the VALIDATION_FAILED of err, an error a
// handler returned, when err says the handler refused the call's
// arguments, and false otherwise:
//
//   - one of the messages of mcp-go's argument accessors
//     (request.RequireString and friends) anywhere in err's chain;
//   - a *json.UnmarshalTypeError (request.BindArguments into the
//     handler's type) whose field holds, in the arguments, a value of the
//     JSON type the error names: a decoding error of some other JSON the
//     handler read is not the arguments' fault.
//
// When the arguments break the tool's input schema, the error is
// argcheck's, with every violation and its repair; otherwise it is what
// the handler's error says: the field and the type it must have, or that
// it is required. No value is invented.
func (a *adapter) handlerArgumentsError(tool string, d toolDef, args json.RawMessage, err error) (*toolerr.Error, bool) {
	p, accessor := findArgumentError(err)
	var te *json.UnmarshalTypeError
	bound := !accessor && errors.As(err, &te) && boundFrom(te, args)
	if !accessor && !bound {
		return nil, false
	}
	if e := a.schemaViolations(tool, d.input(), args); e != nil {
		return e.WithCause(err), true
	}
	if accessor {
		return p.toolerrError(a.core.Registry).WithCause(err), true
	}
	e, _ := argcheck.DecodeError(a.core.Registry, te)
	return e.WithCause(err), true
}

// boundFrom reports whether te can come from decoding args: args hold, at
// te's field, a value whose JSON type is the one te names.
func boundFrom(te *json.UnmarshalTypeError, args json.RawMessage) bool {
	if te.Field == "" || len(args) == 0 {
		return false
	}
	dec := json.NewDecoder(bytes.NewReader(args))
	dec.UseNumber()
	var v any
	if dec.Decode(&v) != nil {
		return false
	}
	for _, name := range strings.Split(te.Field, ".") {
		switch node := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = node[name]; !ok {
				return false
			}
		case []any:
			i, err := strconv.Atoi(name)
			if err != nil || i < 0 || i >= len(node) {
				return false
			}
			v = node[i]
		default:
			return false
		}
	}
	got, _, _ := strings.Cut(te.Value, " ") // "number 3.5" names the number too
	return jsonType(v) == got
}

// jsonType is the word encoding/json's UnmarshalTypeError uses for the
// type of a decoded value.
func jsonType(v any) string {
	switch v.(type) {
	case string:
		return "string"
	case json.Number:
		return "number"
	case bool:
		return "bool"
	case []any:
		return "array"
	case map[string]any:
		return "object"
	}
	return "null"
}
