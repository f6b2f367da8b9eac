package toolerrhuma_test

import (
	"encoding/json"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolerr/toolerr"
)

// TestSchemaLinkTransformer proves, with huma.DefaultConfig, that huma's
// $schema link transformer is at work (a success gets its $schema member and
// Link header) and never touches a toolerr error: no $schema member, no Link
// header, a body that validates, with and without the middleware.
func TestSchemaLinkTransformer(t *testing.T) {
	for _, m := range mounts {
		for _, mw := range []bool{true, false} {
			srv := serve(t, m, mw)
			resp, body := call(t, http.MethodGet, srv.URL+"/orders/abc", "")
			require.Equal(t, http.StatusOK, resp.StatusCode)
			var ok map[string]any
			require.NoError(t, json.Unmarshal(body, &ok))
			assert.Contains(t, ok, "$schema", "the transformer is on")
			assert.Contains(t, resp.Header.Get("Link"), `rel="describedBy"`)

			for _, path := range []string{"/orders/missing", "/orders/locked", "/orders/ABC"} {
				resp, body = call(t, http.MethodGet, srv.URL+path, "")
				require.GreaterOrEqual(t, resp.StatusCode, 400)
				require.NoError(t, toolerr.Validate(body), "%s: %s", path, body)
				var e map[string]any
				require.NoError(t, json.Unmarshal(body, &e))
				assert.NotContains(t, e, "$schema", path)
				assert.Empty(t, resp.Header.Get("Link"), path)
			}
		}
	}
}
