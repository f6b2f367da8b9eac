package toolresult

import (
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
)

const secret = "sk_live_51HqLyjWDarjtT1zdp7dcXu2Q"

func TestFromError(t *testing.T) {
	assert.Equal(t, Result{}, FromError(nil))

	e := toolerr.Default().New(toolerr.CodeRateLimited, "").WithRequestID("req-1")
	r := FromError(e)
	assert.True(t, r.IsError)
	assert.Same(t, e, r.Err)
	assert.Equal(t, e.Observation(), r.Text)

	r = FromError(errors.New("dial db.internal:5432 with password " + secret))
	assert.True(t, r.IsError)
	assert.Equal(t, toolerr.CodeInternal, r.Err.Code)
	assert.True(t, strings.HasPrefix(r.Text, "INTERNAL_ERROR (internal)\n"), r.Text)
	assert.NotContains(t, r.Text, secret)
	assert.NotContains(t, r.Text, "db.internal")
}

// toolServer serves, under toolerr's middleware, a tool that fails with a
// validation error and one that succeeds, plus a route outside the
// middleware that answers a raw gateway page.
func toolServer(t *testing.T, opts ...middleware.Option) *httptest.Server {
	t.Helper()
	mux := http.NewServeMux()
	mux.Handle("POST /tools/search", middleware.Tool("search", func(w http.ResponseWriter, r *http.Request) error {
		return toolerr.Default().New(toolerr.CodeValidationFailed, "limit must be between 1 and 100; got 500.").
			WithField("limit").WithAllowedValues(toolerr.Range{Minimum: 1, Maximum: 100}).WithSuggestedValue(100)
	}))
	mux.HandleFunc("GET /tools/ok", func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.WriteString(w, `{"orders":[]}`)
	})
	outer := http.NewServeMux()
	outer.Handle("/tools/", middleware.New(opts...)(mux))
	outer.HandleFunc("/raw", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = io.WriteString(w, "<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1>"+
			"<hr>nginx/1.25.3 upstream key "+secret+"</body></html>")
	})
	srv := httptest.NewServer(outer)
	t.Cleanup(srv.Close)
	return srv
}

func fetch(t *testing.T, method, url string) Result {
	t.Helper()
	req, err := http.NewRequest(method, url, nil)
	require.NoError(t, err)
	resp, err := http.DefaultClient.Do(req)
	require.NoError(t, err)
	r, err := FromResponse(resp)
	require.NoError(t, err)
	return r
}

func TestFromResponse(t *testing.T) {
	for _, format := range []toolerr.Format{toolerr.FormatProblem, toolerr.FormatEnvelope} {
		srv := toolServer(t, middleware.WithFormat(format))
		r := fetch(t, http.MethodPost, srv.URL+"/tools/search")
		assert.True(t, r.IsError)
		require.NotNil(t, r.Err)
		assert.Equal(t, "limit", r.Err.Field)
		assert.True(t, strings.HasPrefix(r.Text, "VALIDATION_FAILED (validation): limit must be between 1 and 100; got 500.\nretryable: false\nfield: limit\n"), r.Text)
		assert.Contains(t, r.Text, "\nsuggested_value: 100\n")
		assert.Contains(t, r.Text, "\nrequest_id: ")

		ok := fetch(t, http.MethodGet, srv.URL+"/tools/ok")
		assert.Equal(t, Result{Text: `{"orders":[]}`}, ok)

		raw := fetch(t, http.MethodGet, srv.URL+"/raw")
		assert.True(t, raw.IsError)
		assert.True(t, strings.HasPrefix(raw.Text, "UPSTREAM_"), raw.Text)
		assert.NotContains(t, raw.Text, "<")
		assert.NotContains(t, raw.Text, secret)
	}
}

func TestFromResponseCutsALongOutput(t *testing.T) {
	long := strings.Repeat("é", MaxBody) // 2 MiB of two-byte runes
	resp := &http.Response{StatusCode: 200, Body: io.NopCloser(strings.NewReader(long))}
	r, err := FromResponse(resp)
	require.NoError(t, err)
	assert.False(t, r.IsError)
	assert.True(t, strings.HasSuffix(r.Text, "\n[output cut at 1 MiB]"))
	assert.LessOrEqual(t, len(r.Text), MaxBody+len("\n[output cut at 1 MiB]"))
	assert.True(t, strings.HasPrefix(r.Text, "éé"))
	assert.NotContains(t, r.Text, "\uFFFD", "cut at a rune boundary")

	_, err = FromResponse(&http.Response{StatusCode: 500})
	assert.Error(t, err)
}

func TestShapes(t *testing.T) {
	r := Result{Text: "RATE_LIMITED (rate_limit)\nretryable: true", IsError: true}
	for _, c := range []struct {
		v    any
		want string
	}{
		{r.OpenAIFunctionCallOutput("call_12345xyz"),
			`{"type":"function_call_output","call_id":"call_12345xyz","output":"RATE_LIMITED (rate_limit)\nretryable: true"}`},
		{r.OpenAIToolMessage("call_12345xyz"),
			`{"role":"tool","tool_call_id":"call_12345xyz","content":"RATE_LIMITED (rate_limit)\nretryable: true"}`},
		{r.AnthropicToolResult("toolu_01A09q90qw90lq917835lq9"),
			`{"type":"tool_result","tool_use_id":"toolu_01A09q90qw90lq917835lq9","content":[{"type":"text","text":"RATE_LIMITED (rate_limit)\nretryable: true"}],"is_error":true}`},
		{Result{Text: "ok"}.AnthropicToolResult("toolu_1"),
			`{"type":"tool_result","tool_use_id":"toolu_1","content":[{"type":"text","text":"ok"}]}`},
	} {
		b, err := json.Marshal(c.v)
		require.NoError(t, err)
		assert.JSONEq(t, c.want, string(b))
	}
}
