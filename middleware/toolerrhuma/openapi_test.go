package toolerrhuma_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/errdocs"
	"github.com/toolerr/toolerr/middleware/toolerrhuma"
)

// openAPIDoc is what the test reads of huma's /openapi.json.
type openAPIDoc struct {
	Paths map[string]map[string]struct {
		OperationID string                     `json:"operationId"`
		Codes       []errdocs.AgentErrorCode   `json:"x-agent-error-codes"`
		Responses   map[string]map[string]any  `json:"responses"`
		Raw         map[string]json.RawMessage `json:"-"`
	} `json:"paths"`
	Components struct {
		Schemas   map[string]map[string]json.RawMessage `json:"schemas"`
		Responses map[string]struct {
			Content map[string]struct {
				Schema  map[string]string `json:"schema"`
				Example json.RawMessage   `json:"example"`
			} `json:"content"`
		} `json:"responses"`
		Codes []errdocs.AgentErrorCode `json:"x-agent-error-codes"`
	} `json:"components"`
}

// codesOf returns the codes of an x-agent-error-codes list.
func codesOf(list []errdocs.AgentErrorCode) []string {
	out := make([]string, 0, len(list))
	for _, c := range list {
		out = append(out, c.Code)
	}
	return out
}

// TestOpenAPI reads the document huma serves and checks the operations'
// codes and the toolerr components.
func TestOpenAPI(t *testing.T) {
	for _, m := range mounts {
		t.Run(m.name, func(t *testing.T) {
			srv := serve(t, m, true)
			resp, body := call(t, http.MethodGet, srv.URL+"/openapi.json", "")
			require.Equal(t, http.StatusOK, resp.StatusCode)
			var doc openAPIDoc
			require.NoError(t, json.Unmarshal(body, &doc))

			get := doc.Paths["/orders/{id}"]["get"]
			assert.Equal(t, "get-order", get.OperationID)
			assert.Equal(t, []string{"CONFLICT", "INTERNAL_ERROR", "NOT_FOUND", "VALIDATION_FAILED"}, codesOf(get.Codes))
			search := doc.Paths["/orders/search"]["post"]
			assert.Equal(t, []string{"INTERNAL_ERROR", "PAYLOAD_TOO_LARGE", "RATE_LIMITED", "VALIDATION_FAILED"}, codesOf(search.Codes))
			for _, c := range search.Codes {
				def, ok := toolerr.Default().Lookup(c.Code)
				require.True(t, ok)
				assert.Equal(t, def.Status, c.Status)
				assert.Equal(t, def.Category, c.Category)
				assert.Equal(t, def.Retryable, c.Retryable)
			}

			// Every status a code answers with is documented; huma's 422
			// is gone: VALIDATION_FAILED answers 400.
			for _, status := range []string{"400", "404", "409", "500"} {
				assert.Contains(t, get.Responses, status)
			}
			assert.NotContains(t, get.Responses, "422")
			problem := map[string]any{"$ref": "#/components/schemas/Problem"}
			assert.Equal(t, problem, get.Responses["404"]["content"].(map[string]any)[toolerr.ContentTypeProblem].(map[string]any)["schema"])
			assert.Equal(t, "#/components/responses/VALIDATION_FAILED", get.Responses["400"]["$ref"])

			// The components: the problem schema, as the core exports it,
			// untouched by huma's link transformer; a response per code.
			schema := doc.Components.Schemas["Problem"]
			require.NotNil(t, schema)
			assert.Contains(t, schema, "$defs")
			assert.JSONEq(t, `"object"`, string(schema["type"]))
			var props map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(schema["properties"], &props))
			assert.NotContains(t, props, "$schema")
			assert.Contains(t, props, "violations")
			r := doc.Components.Responses["RATE_LIMITED"]
			ex := r.Content[toolerr.ContentTypeProblem].Example
			require.NoError(t, toolerr.Validate(ex), "%s", ex)
			assert.Contains(t, codesOf(doc.Components.Codes), "TOOL_NOT_FOUND")
		})
	}
}

// TestOpenAPIProblemNameTaken checks that a service's own Problem schema is
// kept, and toolerr's goes under another name its references follow.
func TestOpenAPIProblemNameTaken(t *testing.T) {
	type Problem struct {
		Reason string `json:"reason"`
	}
	api, h := newMux(huma.DefaultConfig("Orders", "1.0.0"), true)
	api.OpenAPI().Components.Schemas.Schema(reflectTypeOf(Problem{}), true, "")
	api = toolerrhuma.Install(api)
	registerTools(api)
	srv := startServer(t, h)
	_, body := call(t, http.MethodGet, srv.URL+"/openapi.json", "")
	var doc openAPIDoc
	require.NoError(t, json.Unmarshal(body, &doc))
	assert.Contains(t, doc.Components.Schemas["Problem"], "properties")
	assert.NotContains(t, doc.Components.Schemas["Problem"], "$defs")
	ours := doc.Components.Schemas["ToolerrProblem"]
	require.NotNil(t, ours)
	assert.Contains(t, string(ours["properties"]), `"#/components/schemas/ToolerrProblem/$defs/`)
	assert.NotContains(t, string(ours["properties"]), `"#/components/schemas/Problem/`)
}

// TestInstallTwice checks that a second Install changes nothing a request
// or the document shows.
func TestInstallTwice(t *testing.T) {
	api, h := newChi(huma.DefaultConfig("Orders", "1.0.0"), true)
	api = toolerrhuma.Install(toolerrhuma.Install(api))
	registerTools(api)
	srv := startServer(t, h)
	resp, body := call(t, http.MethodGet, srv.URL+"/orders/missing", "")
	e := assertError(t, resp, body, http.StatusNotFound, toolerr.CodeNotFound)
	assert.Equal(t, "get-order", e.Tool)
	_, body = call(t, http.MethodGet, srv.URL+"/openapi.json", "")
	var doc openAPIDoc
	require.NoError(t, json.Unmarshal(body, &doc))
	assert.Equal(t, []string{"CONFLICT", "INTERNAL_ERROR", "NOT_FOUND", "VALIDATION_FAILED"}, codesOf(doc.Paths["/orders/{id}"]["get"].Codes))
}
