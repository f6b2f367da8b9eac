package middleware

import (
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// TestReportedMethodNotAllowedKeepsAllow: a router that answers a wrong
// method by setting Allow and handing METHOD_NOT_ALLOWED over with
// ReportError (echo's router does, through the echo adapter) gets the
// same answer as a router whose 405 is captured: the Allow header stays
// and its methods are the error's allowed_values. An Allow header that is
// not a list of methods is dropped, as a captured one is.
func TestReportedMethodNotAllowedKeepsAllow(t *testing.T) {
	cases := []struct {
		name, allow string
		want        []any
	}{
		{"router's Allow", "GET, OPTIONS", []any{"GET", "OPTIONS"}},
		{"no Allow", "", nil},
		{"not a method list", "GET, <script>", nil},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if tc.allow != "" {
					w.Header().Set("Allow", tc.allow)
				}
				require.True(t, ReportError(r.Context(), toolerr.Default().New(toolerr.CodeMethodNotAllowed, "")))
			})
			resp, body := do(t, "DELETE", serve(t, h)+"/orders/42", nil, "")
			require.Equal(t, http.StatusMethodNotAllowed, resp.StatusCode, "%s", body)
			p := problem(t, body)
			assert.Equal(t, toolerr.CodeMethodNotAllowed, p["code"])
			if tc.want == nil {
				assert.Empty(t, resp.Header.Values("Allow"))
				assert.NotContains(t, p, "allowed_values")
				return
			}
			assert.Equal(t, tc.allow, resp.Header.Get("Allow"))
			assert.Equal(t, tc.want, p["allowed_values"])
		})
	}
}
