package middleware

import (
	"io"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolerr/toolerr"
)

// TestAcceptTextGetsTheObservation: under New(), an agent that asks for
// text/markdown or text/plain gets the observation, for a tool's returned
// error and for a raw error response the middleware replaces; the
// sanitizing is the same as for problem+json.
func TestAcceptTextGetsTheObservation(t *testing.T) {
	mux := http.NewServeMux()
	mux.Handle("POST /tools/search_orders", Tool("search_orders", func(w http.ResponseWriter, r *http.Request) error {
		return toolerr.Default().New(toolerr.CodeValidationFailed, "limit must be between 1 and 100; got 500.").
			WithField("limit").WithAllowedValues(toolerr.Range{Minimum: 1, Maximum: 100}).WithSuggestedValue(100)
	}))
	mux.HandleFunc("GET /tools/quote", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = io.WriteString(w, "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center>"+
			"<hr><center>nginx/1.25.3</center> key sk_live_51HqLyjWDarjtT1zdp7dcXu2Q</body></html>")
	})
	url := serve(t, mux)

	resp, body := do(t, "POST", url+"/tools/search_orders", http.Header{"Accept": {"text/markdown"}}, "{}")
	assert.Equal(t, 400, resp.StatusCode)
	assert.Equal(t, toolerr.ContentTypeMarkdown, resp.Header.Get("Content-Type"))
	text := string(body)
	assert.True(t, strings.HasPrefix(text, "**VALIDATION_FAILED** (validation): limit must be between 1 and 100; got 500.\n- retryable: false\n- field: `limit`\n"), text)
	assert.Contains(t, text, "\n- request_id: `"+resp.Header.Get("X-Request-Id")+"`")

	resp, body = do(t, "GET", url+"/tools/quote", http.Header{"Accept": {"text/plain, application/json;q=0.5"}}, "")
	assert.GreaterOrEqual(t, resp.StatusCode, 500)
	assert.Equal(t, toolerr.ContentTypePlain, resp.Header.Get("Content-Type"))
	text = string(body)
	assert.True(t, strings.HasPrefix(text, "UPSTREAM_"), text)
	assert.NotContains(t, text, "<")
	assert.NotContains(t, text, "sk_live_51HqLyjWDarjtT1zdp7dcXu2Q")
	assert.Contains(t, text, "\nrequest_id: "+resp.Header.Get("X-Request-Id"))

	resp, _ = do(t, "GET", url+"/tools/quote", http.Header{"Accept": {"application/json"}}, "")
	assert.Equal(t, toolerr.ContentTypeProblem, resp.Header.Get("Content-Type"), "JSON stays the default")
}
