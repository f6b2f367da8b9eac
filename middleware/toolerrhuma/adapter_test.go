package toolerrhuma_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolerr/toolerr"
)

// errorCase is one failing call and what the agent must get.
type errorCase struct {
	name, method, path, body string
	status                   int
	code, tool, field        string
	// violations are the fields of the violations, in order.
	violations []string
	// suggested maps a violation's field to its suggested_value (JSON).
	suggested map[string]string
	// example is the example_request (JSON), "" for none.
	example string
	check   func(t *testing.T, e *toolerr.Error, raw map[string]any)
}

var errorCases = []errorCase{
	{
		name: "body over the maximum and a wrong-case enum", method: http.MethodPost, path: "/orders/search",
		body:   `{"query":"boots","limit":500,"carrier":"UPS"}`,
		status: 400, code: toolerr.CodeValidationFailed, tool: "search-orders", field: "/carrier",
		violations: []string{"/carrier", "/limit"},
		suggested:  map[string]string{"/carrier": `"ups"`, "/limit": `100`},
		example:    `{"carrier":"ups","limit":100,"query":"boots"}`,
	},
	{
		name: "body with a misspelt property", method: http.MethodPost, path: "/orders/search",
		body:   `{"query":"boots","limt":5}`,
		status: 400, code: toolerr.CodeValidationFailed, tool: "search-orders", field: "/limit",
		violations: []string{"/limit", "/limt"},
		suggested:  map[string]string{"/limt": `"limit"`, "/limit": `5`},
		example:    `{"limit":5,"query":"boots"}`,
	},
	{
		name: "body value nothing can repair", method: http.MethodPost, path: "/orders/search",
		body:   `{"query":"","limit":5}`,
		status: 400, code: toolerr.CodeValidationFailed, tool: "search-orders", field: "/query",
		violations: []string{"/query"},
	},
	{
		name: "huma rejects the body before the handler can", method: http.MethodPost, path: "/orders/search",
		body:   `{"query":"forbidden words","limit":500}`,
		status: 400, code: toolerr.CodeValidationFailed, tool: "search-orders", field: "/limit",
		violations: []string{"/limit"},
		suggested:  map[string]string{"/limit": `100`},
	},
	{
		name: "handler's own validation error of a valid body", method: http.MethodPost, path: "/orders/search",
		body:   `{"query":"forbidden words","limit":5}`,
		status: 400, code: toolerr.CodeValidationFailed, tool: "search-orders", field: "/query",
		violations: []string{"/query"},
		check: func(t *testing.T, e *toolerr.Error, _ map[string]any) {
			assert.Equal(t, "must not name a banned term", e.Violations[0].Reason)
			assert.Contains(t, e.Detail, "the search was refused")
		},
	},
	{
		name: "path and query parameters", method: http.MethodGet, path: "/orders/ABC?verbose=7",
		status: 400, code: toolerr.CodeValidationFailed, tool: "get-order", field: "path.id",
		violations: []string{"path.id", "query.verbose"},
	},
	{
		name: "huma.Error404NotFound", method: http.MethodGet, path: "/orders/missing",
		status: 404, code: toolerr.CodeNotFound, tool: "get-order",
		check: func(t *testing.T, e *toolerr.Error, _ map[string]any) {
			assert.Equal(t, "order missing was not found", e.Detail)
		},
	},
	{
		name: "huma.Error409Conflict naming an internal host", method: http.MethodGet, path: "/orders/teapot",
		status: 409, code: toolerr.CodeConflict, tool: "get-order",
		check: func(t *testing.T, e *toolerr.Error, _ map[string]any) {
			assert.Contains(t, e.Detail, "order teapot is locked by")
		},
	},
	{
		name: "returned *toolerr.Error", method: http.MethodGet, path: "/orders/locked",
		status: 409, code: toolerr.CodeConflict, tool: "get-order", field: "/id",
		check: func(t *testing.T, e *toolerr.Error, _ map[string]any) {
			assert.Equal(t, "The order is locked by another update.", e.Detail)
			assert.Equal(t, "job-7", e.Details["locked_by"])
		},
	},
	{
		name: "returned plain error with a secret and a database host", method: http.MethodGet, path: "/orders/secret",
		status: 500, code: toolerr.CodeInternal, tool: "get-order",
	},
	{
		name: "returned deadline error", method: http.MethodGet, path: "/orders/slow",
		status: 504, code: toolerr.CodeToolTimeout, tool: "get-order",
		check: func(t *testing.T, e *toolerr.Error, _ map[string]any) {
			assert.True(t, e.Retryable, "a GET may be repeated")
		},
	},
	{
		name: "huma error with an HTML page", method: http.MethodGet, path: "/orders/html",
		status: 500, code: toolerr.CodeInternal, tool: "get-order",
		check: func(t *testing.T, e *toolerr.Error, _ map[string]any) {
			assert.NotContains(t, e.Detail, "<")
		},
	},
	{
		name: "panic with a card number and a token", method: http.MethodGet, path: "/orders/panic",
		status: 500, code: toolerr.CodeInternal, tool: "get-order",
	},
	{
		name: "unknown route", method: http.MethodGet, path: "/tools/nope",
		status: 404, code: toolerr.CodeToolNotFound,
	},
	{
		name: "wrong method", method: http.MethodDelete, path: "/orders/abc",
		status: 405, code: toolerr.CodeMethodNotAllowed,
		check: func(t *testing.T, _ *toolerr.Error, _ map[string]any) {},
	},
}

// TestErrors drives every failure through a real huma API, on humachi and
// humago under the toolerr middleware, and checks what the agent gets.
func TestErrors(t *testing.T) {
	for _, m := range mounts {
		srv := serve(t, m, true)
		for _, tc := range errorCases {
			t.Run(m.name+"/"+tc.name, func(t *testing.T) {
				resp, body := call(t, tc.method, srv.URL+tc.path, tc.body, "X-Request-Id", "agent-call-7")
				e := assertError(t, resp, body, tc.status, tc.code)
				assert.Equal(t, "agent-call-7", e.RequestID, "request_id is the X-Request-Id")
				assert.Equal(t, tc.tool, e.Tool, "tool is the operation id")
				assert.Equal(t, tc.field, e.Field)
				var raw map[string]any
				require.NoError(t, json.Unmarshal(body, &raw))
				assertViolations(t, e, raw, tc)
				if tc.code == toolerr.CodeMethodNotAllowed {
					assert.Contains(t, resp.Header.Get("Allow"), http.MethodGet)
				}
				if tc.check != nil {
					tc.check(t, e, raw)
				}
			})
		}
	}
}

// assertError checks the promises every error response keeps and returns
// the parsed error.
func assertError(t *testing.T, resp *http.Response, body []byte, status int, code string) *toolerr.Error {
	t.Helper()
	require.Equal(t, status, resp.StatusCode, "%s", body)
	require.NoError(t, toolerr.Validate(body), "%s", body)
	e, err := toolerr.Parse(body)
	require.NoError(t, err)
	assert.Equal(t, code, e.Code)
	assert.Equal(t, status, e.Status, "the body's status is the response's")
	def, ok := toolerr.Default().Lookup(code)
	require.True(t, ok)
	assert.Equal(t, def.Status, status, "the status is the code's")
	assert.Equal(t, toolerr.ContentTypeProblem, resp.Header.Get("Content-Type"))
	assert.Equal(t, e.RequestID, resp.Header.Get("X-Request-Id"))
	assert.Nil(t, e.Upstream, "no downstream was involved")
	var top map[string]json.RawMessage
	require.NoError(t, json.Unmarshal(body, &top))
	assert.NotContains(t, top, "$schema", "huma's link transformer left the error alone")
	assert.Empty(t, resp.Header.Get("Link"))
	assertClean(t, body)
	return e
}

// assertClean checks that nothing secret, no HTML and no stack trace is in
// body.
func assertClean(t *testing.T, body []byte) {
	t.Helper()
	s := string(body)
	for _, leak := range []string{secretToken, secretHost, secretCard, "5432", "password", "<html", "goroutine ", ".go:", "panic("} {
		assert.NotContains(t, s, leak)
	}
}

// assertViolations checks the violations and repairs of tc.
func assertViolations(t *testing.T, e *toolerr.Error, raw map[string]any, tc errorCase) {
	t.Helper()
	fields := make([]string, 0, len(e.Violations))
	for _, v := range e.Violations {
		fields = append(fields, v.Field)
		assert.NotEmpty(t, v.Reason)
		if want, ok := tc.suggested[v.Field]; ok {
			got, err := json.Marshal(v.SuggestedValue)
			require.NoError(t, err)
			assert.JSONEq(t, want, string(got), "suggested_value of %s", v.Field)
		} else {
			assert.Nil(t, v.SuggestedValue, "no guess at %s", v.Field)
		}
	}
	if len(tc.violations) == 0 {
		assert.Empty(t, fields)
	} else {
		assert.Equal(t, tc.violations, fields)
	}
	if tc.example == "" {
		assert.Nil(t, raw["example_request"])
		return
	}
	got, err := json.Marshal(raw["example_request"])
	require.NoError(t, err)
	assert.JSONEq(t, tc.example, string(got))
}

// TestSuccessPassesThrough checks that a success is huma's response,
// unchanged by the adapter.
func TestSuccessPassesThrough(t *testing.T) {
	for _, m := range mounts {
		t.Run(m.name, func(t *testing.T) {
			srv := serve(t, m, true)
			resp, body := call(t, http.MethodPost, srv.URL+"/orders/search", `{"query":"boots","limit":5}`)
			require.Equal(t, http.StatusOK, resp.StatusCode, "%s", body)
			assert.Equal(t, "application/json", resp.Header.Get("Content-Type"))
			var out struct {
				Schema string   `json:"$schema"`
				Orders []string `json:"orders"`
			}
			require.NoError(t, json.Unmarshal(body, &out))
			assert.Equal(t, []string{"o-1", "o-2"}, out.Orders)
			assert.True(t, strings.HasSuffix(out.Schema, "/schemas/SearchOutputBody.json"), out.Schema)
			assert.NotEmpty(t, resp.Header.Get("X-Request-Id"))
		})
	}
}

// TestSuccessUnchanged checks that a success under toolerr is byte for byte
// huma's own: status, headers huma sets and body.
func TestSuccessUnchanged(t *testing.T) {
	for _, m := range mounts {
		t.Run(m.name, func(t *testing.T) {
			api, alone := m.new(huma.DefaultConfig("Orders", "1.0.0"), false)
			registerTools(api)
			plain := startServer(t, alone)
			ours := serve(t, m, true)
			for _, c := range []struct{ method, path, body string }{
				{http.MethodPost, "/orders/search", `{"query":"boots","limit":5,"carrier":"dhl"}`},
				{http.MethodGet, "/orders/abc?verbose=1", ""},
			} {
				want, wantBody := call(t, c.method, plain.URL+c.path, c.body, "Host", "tools.example")
				got, gotBody := call(t, c.method, ours.URL+c.path, c.body, "Host", "tools.example")
				assert.Equal(t, want.StatusCode, got.StatusCode)
				assert.Equal(t, string(wantBody), string(gotBody))
				for _, h := range []string{"Content-Type", "Link", "Content-Length"} {
					assert.Equal(t, want.Header.Get(h), got.Header.Get(h), h)
				}
			}
		})
	}
}

// TestMiddlewareRenders checks that under the middleware the error is the
// middleware's rendering, not huma's: an agent asking for text/markdown
// gets the observation, for huma's validation, a huma error and a returned
// toolerr error alike.
func TestMiddlewareRenders(t *testing.T) {
	for _, m := range mounts {
		srv := serve(t, m, true)
		for _, c := range []struct{ method, path, body, want string }{
			{http.MethodPost, "/orders/search", `{"query":"x","limit":500}`, "**VALIDATION_FAILED** (validation)"},
			{http.MethodGet, "/orders/missing", "", "**NOT_FOUND** (not_found)"},
			{http.MethodGet, "/orders/locked", "", "**CONFLICT** (conflict)"},
		} {
			t.Run(m.name+c.path, func(t *testing.T) {
				resp, body := call(t, c.method, srv.URL+c.path, c.body, "Accept", "text/markdown", "X-Request-Id", "md-1")
				assert.Equal(t, toolerr.ContentTypeMarkdown, resp.Header.Get("Content-Type"))
				assert.True(t, strings.HasPrefix(string(body), c.want), "%s", body)
				assert.Contains(t, string(body), "request_id: `md-1`")
			})
		}
	}
}
