// Package problemschema compiles the published JSON Schema of toolerr's
// problem object for the tests that validate renderings against it (the
// root package's and package errdocs's), so that both read it one way.
package problemschema

import (
	"bytes"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// ID is the schema's $id.
const ID = "https://toolerr.dev/schema/problem.schema.json"

// Compile compiles the schema document doc with format assertions on, so
// that docs_url is checked as a URI; it fails t on any error.
func Compile(t testing.TB, doc []byte) *jsonschema.Schema {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(doc))
	if err != nil {
		t.Fatalf("problem schema: %v", err)
	}
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	if err := c.AddResource(ID, v); err != nil {
		t.Fatalf("problem schema: %v", err)
	}
	sch, err := c.Compile(ID)
	if err != nil {
		t.Fatalf("problem schema: %v", err)
	}
	return sch
}

// Instance decodes JSON the way the validator expects it (numbers as
// json.Number); it fails t when b is not JSON.
func Instance(t testing.TB, b []byte) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	if err != nil {
		t.Fatalf("not JSON: %v: %s", err, b)
	}
	return v
}
