package middleware

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/toolresult"
)

// chargeFallbacks are the fallbacks of the charge tool of these tests: a
// mutating backup and a read-only status check, both covering auth,
// transient and upstream failures.
var chargeFallbacks = []toolerr.Fallback{
	{Tool: "charge_backup", On: []toolerr.Category{toolerr.CategoryAuth, toolerr.CategoryTransient, toolerr.CategoryUpstream}, Mutates: true},
	{Tool: "charge_status", On: []toolerr.Category{toolerr.CategoryAuth, toolerr.CategoryTransient, toolerr.CategoryUpstream}},
}

// chargeServer serves a charge tool that fails with the code in its
// ?code= query, behind New with the charge fallbacks declared.
func chargeServer(t *testing.T, opts ...Option) string {
	t.Helper()
	h := Tool("charge", func(w http.ResponseWriter, r *http.Request) error {
		return toolerr.Default().New(r.URL.Query().Get("code"), "")
	})
	return serve(t, h, append([]Option{WithFallbacks("charge", chargeFallbacks...)}, opts...)...)
}

func TestFallbacksOfferedInEveryHTTPRendering(t *testing.T) {
	for _, format := range []toolerr.Format{toolerr.FormatProblem, toolerr.FormatEnvelope} {
		url := chargeServer(t, WithFormat(format))
		resp, body := do(t, "GET", url+"?code=UPSTREAM_UNAVAILABLE", nil, "")
		require.Equal(t, 503, resp.StatusCode)
		m := problem(t, body)
		if format == toolerr.FormatEnvelope {
			m = m["error"].(map[string]any)
		}
		assert.Equal(t, []any{"use_fallback:charge_backup", "use_fallback:charge_status"}, m["actions"], "format %d", format)
		assert.Contains(t, m["hint"], "call charge_backup or charge_status instead.")

		e, err := toolerr.Parse(body)
		require.NoError(t, err)
		assert.Equal(t, []string{"charge_backup", "charge_status"}, toolerr.FallbackTools(e))
	}

	url := chargeServer(t)
	resp, body := do(t, "GET", url+"?code=UPSTREAM_UNAVAILABLE", http.Header{"Accept": {"text/plain"}}, "")
	require.Equal(t, 503, resp.StatusCode)
	text := string(body)
	assert.Contains(t, text, "use_fallback:charge_backup")
	assert.Contains(t, text, "call charge_backup or charge_status instead.")
	e, ok := toolresult.ParseObservation(text)
	require.True(t, ok, text)
	assert.Equal(t, []string{"charge_backup", "charge_status"}, toolerr.FallbackTools(e))
}

func TestFallbacksGuardOverHTTP(t *testing.T) {
	url := chargeServer(t)
	offered := func(method, code string, header http.Header) []string {
		t.Helper()
		_, body := do(t, method, url+"?code="+code, header, "{}")
		e, err := toolerr.Parse(body)
		require.NoError(t, err, "%s", body)
		for _, tool := range toolerr.FallbackTools(e) {
			assert.Contains(t, e.Hint, tool)
		}
		if len(toolerr.FallbackTools(e)) < 2 {
			assert.NotContains(t, e.Hint, "charge_backup", "the guarded fallback is not named either")
		}
		return toolerr.FallbackTools(e)
	}
	both := []string{"charge_backup", "charge_status"}
	assert.Equal(t, []string{"charge_status"}, offered("POST", "UNAUTHENTICATED", nil), "auth: the mutating fallback is held back")
	assert.Equal(t, []string{"charge_status"}, offered("POST", "UNAUTHENTICATED", http.Header{"Idempotency-Key": {"k1"}}), "a key does not lift the auth guard")
	assert.Equal(t, []string{"charge_status"}, offered("POST", "UPSTREAM_TIMEOUT", nil), "a keyless POST timed out: it may have run")
	assert.Equal(t, both, offered("POST", "UPSTREAM_TIMEOUT", http.Header{"Idempotency-Key": {"k2"}}), "with a key it runs once")
	assert.Equal(t, both, offered("GET", "UPSTREAM_TIMEOUT", nil), "a GET changes nothing")
	assert.Nil(t, offered("POST", "VALIDATION_FAILED", nil), "no fallback covers validation")
}

func TestFallbacksOfferedOnCapturedResponse(t *testing.T) {
	// A handler that writes a raw 502 page: the middleware replaces it
	// (the tool failed: INTERNAL_ERROR) and offers the fallback of that
	// category all the same.
	h := Tool("charge", func(w http.ResponseWriter, r *http.Request) error {
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write([]byte("<html>bad gateway</html>"))
		return nil
	})
	url := serve(t, h, WithFallbacks("charge", toolerr.Fallback{Tool: "charge_status", On: []toolerr.Category{toolerr.CategoryInternal}}))
	_, body := do(t, "GET", url, nil, "")
	e := mustParse(t, body)
	assert.Equal(t, toolerr.CodeInternal, e.Code)
	assert.Equal(t, []string{"charge_status"}, toolerr.FallbackTools(e), "%s", body)
}

func TestFallbacksDeclaredInTheGivenRegistry(t *testing.T) {
	reg := toolerr.NewRegistry(toolerr.Default())
	_ = chargeServer(t, WithRegistry(reg))
	assert.Equal(t, chargeFallbacks, reg.Fallbacks("charge"), "the service's registry holds them, for its exports")
	assert.Nil(t, toolerr.Default().Fallbacks("charge"), "the built-in registry never changes")
}

func TestFallbacksBadDeclarationIsLogged(t *testing.T) {
	logger, sink := newLogger()
	h := Tool("charge", func(w http.ResponseWriter, r *http.Request) error {
		return toolerr.Default().New(toolerr.CodeUpstreamUnavailable, "")
	})
	url := serve(t, h, WithLogger(logger), WithFallbacks("charge", toolerr.Fallback{Tool: "charge"}))
	warnings := sink.byMessage("toolerr: WithFallbacks ignored")
	require.Len(t, warnings, 1)
	assert.Contains(t, warnings[0]["error"], "its own fallback")
	_, body := do(t, "GET", url, nil, "")
	var m map[string]any
	require.NoError(t, json.Unmarshal(body, &m))
	assert.NotContains(t, strings.Join(toolerr.FallbackTools(mustParse(t, body)), ","), "charge")
}

// mustParse parses a rendered error.
func mustParse(t *testing.T, body []byte) *toolerr.Error {
	t.Helper()
	e, err := toolerr.Parse(body)
	require.NoError(t, err, "%s", body)
	return e
}
