package errdocs

import (
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolerr/toolerr/internal/problemschema"
)

// compileProblemSchema compiles the embedded problem schema, the published
// one.
func compileProblemSchema(t *testing.T) *jsonschema.Schema {
	return problemschema.Compile(t, problemSchema)
}

// decodeInstance decodes JSON as the validator expects it (numbers as
// json.Number).
func decodeInstance(t *testing.T, b []byte) any { return problemschema.Instance(t, b) }
