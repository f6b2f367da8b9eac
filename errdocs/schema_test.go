package errdocs

import (
	"bytes"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"
)

// compileProblemSchema compiles the embedded problem schema, the published
// one, with format assertions on so that docs_url is checked as a URI.
func compileProblemSchema(t *testing.T) *jsonschema.Schema {
	t.Helper()
	const id = "https://toolerr.dev/schema/problem.schema.json"
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(problemSchema))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	c.AssertFormat()
	require.NoError(t, c.AddResource(id, doc))
	sch, err := c.Compile(id)
	require.NoError(t, err)
	return sch
}

// decodeInstance decodes JSON as the validator expects it (numbers as
// json.Number).
func decodeInstance(t *testing.T, b []byte) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	require.NoError(t, err, "%s", b)
	return v
}
