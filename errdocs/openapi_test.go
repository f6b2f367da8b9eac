package errdocs

import (
	"bytes"
	"context"
	"encoding/json"
	"strings"
	"testing"

	"github.com/getkin/kin-openapi/openapi3"
	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// loadOpenAPI parses and validates an OpenAPI document with kin-openapi,
// which validates 3.1 documents, examples included, with JSON Schema 2020-12.
func loadOpenAPI(t *testing.T, b []byte) (*openapi3.T, error) {
	t.Helper()
	doc, err := openapi3.NewLoader().LoadFromData(b)
	require.NoError(t, err)
	return doc, doc.Validate(context.Background())
}

func TestOpenAPIValidates(t *testing.T) {
	for name, reg := range map[string]*toolerr.Registry{"default": toolerr.Default(), "service": exportRegistry(t)} {
		t.Run(name, func(t *testing.T) {
			b, err := OpenAPI(reg)
			require.NoError(t, err)
			doc, err := loadOpenAPI(t, b)
			require.NoError(t, err)
			assert.Equal(t, "3.1.0", doc.OpenAPI)
			assert.True(t, doc.IsOpenAPI31OrLater())
			assert.Zero(t, doc.Paths.Len())
			require.Contains(t, doc.Components.Schemas, OpenAPIProblemSchema)

			defs := docDefs(reg)
			require.Len(t, doc.Components.Responses, len(defs))
			for _, d := range defs {
				resp := doc.Components.Responses[d.Code]
				require.NotNil(t, resp, d.Code)
				assert.Equal(t, d.Title, *resp.Value.Description)
				media := resp.Value.Content.Get(toolerr.ContentTypeProblem)
				require.NotNil(t, media, d.Code)
				assert.Equal(t, "#/components/schemas/Problem", media.Schema.Ref)
				example, ok := media.Example.(map[string]any)
				require.True(t, ok, "%s example is an object", d.Code)
				assert.Equal(t, d.Code, example["code"])
				assert.Equal(t, ExampleRequestID, example["request_id"])
				assert.Contains(t, resp.Value.Headers, "X-Request-Id")
				_, hasDelay := example["retry_after_ms"]
				assert.Equal(t, hasDelay, resp.Value.Headers["Retry-After"] != nil, "%s: Retry-After iff retry_after_ms", d.Code)
				// The loaded schema accepts its own example.
				assert.NoError(t, media.Schema.Value.VisitJSON(example, openapi3.EnableJSONSchema2020()), d.Code)
			}
		})
	}
}

func TestOpenAPIAgentErrorCodes(t *testing.T) {
	reg := exportRegistry(t)
	b, err := OpenAPI(reg)
	require.NoError(t, err)
	var doc struct {
		Components struct {
			Codes []AgentErrorCode `json:"x-agent-error-codes"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(b, &doc))
	defs := docDefs(reg)
	require.Len(t, doc.Components.Codes, len(defs))
	for i, d := range defs {
		c := doc.Components.Codes[i]
		assert.Equal(t, AgentErrorCode{
			Code: d.Code, Status: d.Status, Category: d.Category, Severity: d.Severity,
			Retryable: d.Retryable, Stability: d.Stability, Replacement: d.Replacement, Removal: d.Removal,
		}, c)
	}
	assert.Contains(t, string(b), `"replacement": "RATE_LIMITED",`)
	assert.Contains(t, string(b), `"removal": "2027-06-30"`)

	// kin-openapi keeps the extension too.
	loaded, err := loadOpenAPI(t, b)
	require.NoError(t, err)
	assert.Contains(t, loaded.Components.Extensions, OpenAPICodesExtension)
}

// TestOpenAPIProblemSchemaMatchesPublished checks that the Problem component
// decides like testdata/schema/problem.schema.json, under kin-openapi and
// under a plain JSON Schema 2020-12 compiler.
func TestOpenAPIProblemSchemaMatchesPublished(t *testing.T) {
	b, err := OpenAPI(exportRegistry(t))
	require.NoError(t, err)
	assert.NotContains(t, string(b), `"#/$defs/`, "every reference points into the document")

	doc, err := loadOpenAPI(t, b)
	require.NoError(t, err)
	kin := doc.Components.Schemas[OpenAPIProblemSchema].Value

	c := jsonschema.NewCompiler()
	c.AssertFormat()
	raw, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
	require.NoError(t, err)
	require.NoError(t, c.AddResource("mem://openapi.json", raw))
	component, err := c.Compile("mem://openapi.json#/components/schemas/Problem")
	require.NoError(t, err)
	published := compileProblemSchema(t)

	valid := string(toolerr.Default().New(toolerr.CodeRateLimited, "").WithRequestID("r-1").WithTraceID("4bf92f3577b34da6a3ce929d0e0e4736").
		WithItems(toolerr.ItemError{Index: 2, Err: toolerr.Default().New(toolerr.CodeValidationFailed, "")}).AppendJSON(nil))
	cases := map[string]struct {
		body string
		ok   bool
	}{
		"a rendered error":                {valid, true},
		"missing request_id":              {strings.Replace(valid, `,"request_id":"r-1"`, "", 1), false},
		"unknown member":                  {strings.Replace(valid, `{"type"`, `{"extra":1,"type"`, 1), false},
		"rate limit without a delay":      {strings.Replace(valid, `"retry_after_ms":1000,`, "", 1), false},
		"retryable in a fixed category":   {strings.Replace(valid, `"category":"rate_limit"`, `"category":"validation"`, 1), false},
		"bad code in an item":             {strings.Replace(valid, `"code":"VALIDATION_FAILED"`, `"code":"bad code"`, 1), false},
		"status out of range":             {strings.Replace(valid, `"status":429`, `"status":200`, 1), false},
		"all-zero trace id":               {strings.Replace(valid, "4bf92f3577b34da6a3ce929d0e0e4736", strings.Repeat("0", 32), 1), false},
		"retry policy on a non-retryable": {strings.Replace(valid, `"retryable":true`, `"retryable":false`, 1), false},
	}
	for name, tc := range cases {
		t.Run(name, func(t *testing.T) {
			require.True(t, tc.ok || tc.body != valid, "the case changes the body")
			inst := decodeInstance(t, []byte(tc.body))
			assert.Equal(t, tc.ok, published.Validate(inst) == nil, "published schema")
			assert.Equal(t, tc.ok, component.Validate(inst) == nil, "component, JSON Schema compiler")
			var v any
			require.NoError(t, json.Unmarshal([]byte(tc.body), &v))
			assert.Equal(t, tc.ok, kin.VisitJSON(v, openapi3.EnableJSONSchema2020()) == nil, "component, kin-openapi")
		})
	}
}

func TestOpenAPIRejectsABadExample(t *testing.T) {
	b, err := OpenAPI(toolerr.Default())
	require.NoError(t, err)
	broken := bytes.Replace(b, []byte(`"request_id": "`+ExampleRequestID+`"`), []byte(`"request_id": "bad id"`), 1)
	require.NotEqual(t, b, broken)
	_, err = loadOpenAPI(t, broken)
	assert.Error(t, err, "the loader validates examples against the Problem schema")
}
