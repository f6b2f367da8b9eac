package toolerrhuma_test

import (
	"net/http"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/toolerrhuma"
)

// TestWithoutMiddleware checks the errors huma renders itself when no
// toolerr middleware serves the API: the same codes, statuses, fields and
// repairs, valid and sanitized, as application/problem+json, with huma's
// default config (its $schema link transformer included).
func TestWithoutMiddleware(t *testing.T) {
	for _, m := range mounts {
		srv := serve(t, m, false)
		for _, tc := range errorCases {
			switch tc.name {
			case "panic with a card number and a token", "unknown route", "wrong method":
				continue // huma's and the router's own, untouched without the middleware
			}
			t.Run(m.name+"/"+tc.name, func(t *testing.T) {
				resp, body := call(t, tc.method, srv.URL+tc.path, tc.body, "X-Request-Id", "agent-call-8")
				e := assertError(t, resp, body, tc.status, tc.code)
				assert.Equal(t, "agent-call-8", e.RequestID)
				assert.Equal(t, tc.tool, e.Tool)
				assert.Equal(t, tc.field, e.Field)
				assert.Equal(t, "no-store", resp.Header.Get("Cache-Control"))
				var raw map[string]any
				require.NoError(t, jsonUnmarshal(body, &raw))
				assertViolations(t, e, raw, tc)
			})
		}
		t.Run(m.name+"/new request id", func(t *testing.T) {
			resp, body := call(t, http.MethodGet, srv.URL+"/orders/missing", "", "X-Request-Id", "<script>")
			e := assertError(t, resp, body, http.StatusNotFound, toolerr.CodeNotFound)
			assert.True(t, toolerr.ValidRequestID(e.RequestID))
			assert.NotContains(t, string(body), "<script>")
		})
	}
}

// TestUnboundError checks an error huma.NewError built for an operation
// registered on the API itself rather than on the one Install returned, so
// that no transformer binds it to its request: sanitized, its code and
// status kept; under the middleware it is the request's own error (its ids,
// no upstream), without one it carries no request id of its own.
func TestUnboundError(t *testing.T) {
	for _, mw := range []bool{true, false} {
		api, h := newMux(huma.DefaultConfig("Orders", "1.0.0"), mw)
		toolerrhuma.Install(api)
		huma.Register(api, huma.Operation{OperationID: "raw-op", Method: http.MethodGet, Path: "/raw"},
			func(_ ctxT, _ *struct{}) (*struct{}, error) {
				return nil, huma.Error403Forbidden("no access to " + secretHost + " with " + secretToken)
			})
		srv := startServer(t, h)
		resp, body := call(t, http.MethodGet, srv.URL+"/raw", "", "X-Request-Id", "raw-call-1")
		require.Equal(t, http.StatusForbidden, resp.StatusCode)
		assert.Equal(t, toolerr.ContentTypeProblem, resp.Header.Get("Content-Type"))
		assertClean(t, body)
		e, err := toolerr.Parse(body)
		require.NoError(t, err, "%s", body)
		assert.Equal(t, toolerr.CodePermissionDenied, e.Code)
		assert.Nil(t, e.Upstream, "no downstream was involved")
		if mw {
			require.NoError(t, toolerr.Validate(body), "%s", body)
			assert.Equal(t, "raw-call-1", e.RequestID)
			assert.Equal(t, "raw-op", e.Tool, "the API middleware named the tool")
		} else {
			assert.Empty(t, e.RequestID)
			assert.Equal(t, "raw-call-1", resp.Header.Get("X-Request-Id"))
		}
	}
}

// TestStatusBelow400 checks that huma's 304 stays huma's: not an error.
func TestStatusBelow400(t *testing.T) {
	api, h := newMux(huma.DefaultConfig("Orders", "1.0.0"), true)
	api = toolerrhuma.Install(api)
	huma.Register(api, huma.Operation{OperationID: "cached", Method: http.MethodGet, Path: "/cached"},
		func(_ ctxT, _ *struct{}) (*struct{}, error) {
			return nil, huma.Status304NotModified()
		})
	srv := startServer(t, h)
	resp, body := call(t, http.MethodGet, srv.URL+"/cached", "")
	assert.Equal(t, http.StatusNotModified, resp.StatusCode)
	assert.Empty(t, body)
}
