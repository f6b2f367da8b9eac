package toolerrhuma

import (
	"encoding/json"
	"strings"
	"sync"

	"github.com/danielgtaylor/huma/v2"
	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/argcheck"
)

// Repairs: huma knows each operation's request body schema. Compiled once
// per operation into an argcheck.Schema, it checks the body huma rejected
// (the bytes huma read, kept by the API middleware: the body is never read
// twice), and argcheck's violations, with their deterministic repairs
// (suggested_value) and the corrected body (example_request, only when it
// validates), replace huma's violations of the body. argcheck never
// guesses (see the argcheck package); when it finds nothing wrong where
// huma did, huma's violations stay, without repairs.

// opSchema is the compiled body schema of one operation, compiled on the
// first rejected body; s is nil when the operation has none that compiles.
type opSchema struct {
	once sync.Once
	s    *argcheck.Schema
}

// repair returns e, a VALIDATION_FAILED of the request of st, with
// argcheck's violations and repairs of the body in place of huma's.
func (in *installation) repair(st *reqState, e *toolerr.Error) *toolerr.Error {
	if st.body == nil || st.over || st.body.Len() == 0 {
		return e
	}
	var params []toolerr.Violation
	inBody := false
	for _, v := range e.Violations {
		if v.Field == "" || strings.HasPrefix(v.Field, "/") {
			inBody = true
		} else {
			params = append(params, v)
		}
	}
	if !inBody {
		return e
	}
	s := in.schemaFor(st.op)
	if s == nil {
		return e
	}
	checked, ok := toolerr.From(s.CheckJSON(st.body.Bytes()))
	if !ok || checked.Code != toolerr.CodeValidationFailed || len(checked.Violations) == 0 {
		return e
	}
	if len(params) > 0 {
		// The corrected body alone does not make the call valid: no
		// example_request; the parameters' violations follow the body's.
		vs := append(checked.Violations[:len(checked.Violations):len(checked.Violations)], params...)
		checked = checked.WithViolations(vs[:min(len(vs), toolerr.MaxViolations)]...).WithExampleRequest(nil)
	}
	if cause := e.Unwrap(); cause != nil {
		checked = checked.WithCause(cause)
	}
	return checked
}

// schemaFor returns the compiled body schema of op, or nil.
func (in *installation) schemaFor(op *huma.Operation) *argcheck.Schema {
	if op == nil {
		return nil
	}
	v, _ := in.schemas.LoadOrStore(op, new(opSchema))
	o := v.(*opSchema)
	o.once.Do(func() { o.s = in.compile(op) })
	return o.s
}

// compile compiles op's JSON body schema as one document: the operation's
// schema at the root, the document's schemas under components.schemas,
// where its references point.
func (in *installation) compile(op *huma.Operation) *argcheck.Schema {
	mt := jsonContent(op)
	if mt == nil || mt.Schema == nil || in.oapi == nil || in.oapi.Components == nil {
		return nil
	}
	raw, err := json.Marshal(mt.Schema)
	if err != nil {
		return nil
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil || doc == nil {
		return nil
	}
	if in.oapi.Components.Schemas != nil {
		schemas, err := json.Marshal(in.oapi.Components.Schemas)
		if err != nil {
			return nil
		}
		doc["components"] = json.RawMessage(`{"schemas":` + string(schemas) + `}`)
	}
	raw, err = json.Marshal(doc)
	if err != nil {
		return nil
	}
	s, err := argcheck.Compile(raw, argcheck.WithRegistry(in.cfg.registry), argcheck.WithMaxBytes(int64(in.cfg.maxBody)))
	if err != nil {
		return nil
	}
	return s
}

// jsonContent returns the JSON media type of op's request body, or nil.
func jsonContent(op *huma.Operation) *huma.MediaType {
	if op == nil || op.RequestBody == nil {
		return nil
	}
	if mt := op.RequestBody.Content["application/json"]; mt != nil {
		return mt
	}
	for ct, mt := range op.RequestBody.Content {
		if strings.HasSuffix(ct, "+json") || strings.HasSuffix(ct, "/json") {
			return mt
		}
	}
	return nil
}
