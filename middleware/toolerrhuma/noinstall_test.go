package toolerrhuma_test

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolerr/toolerr"
)

// TestAPIWithoutInstall checks an API of the process that Install never
// saw: huma's constructors are toolerr's for it too, so its errors are
// toolerr errors, named after the operation, with and without the
// middleware, and its document refers to a problem schema it holds.
func TestAPIWithoutInstall(t *testing.T) {
	installed(t)
	for _, mw := range []bool{true, false} {
		api, h := newChi(huma.DefaultConfig("Other", "1.0.0"), mw)
		registerTools(api)
		srv := startServer(t, h)

		resp, body := call(t, http.MethodPost, srv.URL+"/orders/search", `{"query":"x","limit":500}`, "X-Request-Id", "other-1")
		e := assertError(t, resp, body, http.StatusBadRequest, toolerr.CodeValidationFailed)
		assert.Equal(t, "search-orders", e.Tool)
		assert.Equal(t, "/limit", e.Field)
		assert.Equal(t, "other-1", e.RequestID)

		resp, body = call(t, http.MethodGet, srv.URL+"/orders/secret", "")
		assertError(t, resp, body, http.StatusInternalServerError, toolerr.CodeInternal)

		_, body = call(t, http.MethodGet, srv.URL+"/openapi.json", "")
		var doc openAPIDoc
		require.NoError(t, json.Unmarshal(body, &doc))
		assert.Contains(t, doc.Components.Schemas, "Problem")
	}
}

// orgInput has a resolver that fails with a toolerr error.
type orgInput struct {
	Org string `query:"org"`
}

// Resolve refuses one organisation with a registered code.
func (o *orgInput) Resolve(huma.Context) []error {
	if o.Org == "frozen" {
		return []error{toolerr.Default().New(toolerr.CodePermissionDenied, "The organisation is frozen.").WithField("query.org")}
	}
	return nil
}

// TestResolverError checks that a resolver's *toolerr.Error keeps its code
// and status through huma's validation error.
func TestResolverError(t *testing.T) {
	for _, m := range mounts {
		t.Run(m.name, func(t *testing.T) {
			api, h := m.new(huma.DefaultConfig("Orders", "1.0.0"), true)
			api = installAPI(api)
			huma.Register(api, huma.Operation{OperationID: "org-report", Method: http.MethodGet, Path: "/report"},
				func(context.Context, *orgInput) (*struct{}, error) { return &struct{}{}, nil })
			srv := startServer(t, h)
			resp, body := call(t, http.MethodGet, srv.URL+"/report?org=frozen", "")
			e := assertError(t, resp, body, http.StatusForbidden, toolerr.CodePermissionDenied)
			assert.Equal(t, "query.org", e.Field)
			assert.Equal(t, "org-report", e.Tool)
			resp, _ = call(t, http.MethodGet, srv.URL+"/report?org=acme", "")
			assert.Equal(t, http.StatusNoContent, resp.StatusCode)
		})
	}
}
