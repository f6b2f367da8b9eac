package errdocs

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// geocodeFallbacks is the example of the fallbacks issue, as OpenAPI
// lists it: a backup geocoder for transient, rate-limit and upstream
// failures, a mutating cache writer for the same, and a broader search for
// not_found.
var geocodeFallbacks = []AgentFallback{
	{Tool: "geocode_backup", On: []toolerr.Category{toolerr.CategoryTransient, toolerr.CategoryRateLimit, toolerr.CategoryUpstream}},
	{Tool: "queue_geocode", On: []toolerr.Category{toolerr.CategoryTransient, toolerr.CategoryAuth, toolerr.CategoryUpstream}, Mutates: true},
	{Tool: "search_places", On: []toolerr.Category{toolerr.CategoryNotFound, toolerr.CategoryAuth}},
}

// geocoderRegistry declares geocodeFallbacks for the tool geocode.
func geocoderRegistry(t *testing.T) *toolerr.Registry {
	t.Helper()
	r := toolerr.NewRegistry(toolerr.Default())
	fbs := make([]toolerr.Fallback, len(geocodeFallbacks))
	for i, fb := range geocodeFallbacks {
		fbs[i] = toolerr.Fallback(fb)
	}
	require.NoError(t, r.DeclareFallbacks("geocode", fbs...))
	return r
}

func TestMarkdownListsFallbacks(t *testing.T) {
	plain := toolerr.NewRegistry(toolerr.Default())
	withFbs := geocoderRegistry(t)
	base := Markdown(plain)
	got := Markdown(withFbs)
	require.True(t, bytes.HasPrefix(got, base), "the codes' sections are unchanged; the fallbacks come last")
	assert.Equal(t, "\n## Fallback tools\n\n"+
		"A failure of a tool whose category a fallback covers carries `use_fallback:<fallback>` in its actions "+
		"and a hint that names it. A mutating fallback is never offered after an `auth`, `permission` or `policy` "+
		"failure, nor after a timeout or a failure that may have run of a write that carried no idempotency key.\n\n"+
		"| Tool | Fallback | Covers | Mutates |\n|---|---|---|---|\n"+
		"| `geocode` | `geocode_backup` | `transient`, `rate_limit`, `upstream` | no |\n"+
		"| `geocode` | `queue_geocode` | `transient`, `auth`, `upstream` | yes |\n"+
		"| `geocode` | `search_places` | `not_found`, `auth` | no |\n", string(got[len(base):]))
	assert.Equal(t, Markdown(toolerr.Default()), base, "no fallbacks: byte-identical")
}

func TestOpenAPIListsFallbacks(t *testing.T) {
	plain, err := OpenAPI(toolerr.NewRegistry(toolerr.Default()))
	require.NoError(t, err)
	assert.NotContains(t, string(plain), OpenAPIFallbacksExtension, "no fallbacks: no extension")
	def, err := OpenAPI(toolerr.Default())
	require.NoError(t, err)
	assert.Equal(t, def, plain)

	doc, err := OpenAPI(geocoderRegistry(t))
	require.NoError(t, err)
	var parsed struct {
		Components struct {
			Codes     []AgentErrorCode           `json:"x-agent-error-codes"`
			Fallbacks map[string][]AgentFallback `json:"x-agent-fallbacks"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(doc, &parsed))
	assert.NotEmpty(t, parsed.Components.Codes)
	assert.Equal(t, map[string][]AgentFallback{"geocode": geocodeFallbacks}, parsed.Components.Fallbacks)
}

func TestMCPToolErrorsBlock(t *testing.T) {
	r := toolerr.NewRegistry(toolerr.Default())
	require.NoError(t, r.DeclareFallbacks("geocode",
		toolerr.Fallback{Tool: "geocode_backup", On: []toolerr.Category{toolerr.CategoryTransient, toolerr.CategoryRateLimit, toolerr.CategoryUpstream}},
		toolerr.Fallback{Tool: "queue_geocode", On: []toolerr.Category{toolerr.CategoryTransient}, Mutates: true}))
	block := MCPToolErrorsBlock(r, "geocode", toolerr.CodeNotFound)
	assert.Equal(t, MCPErrorsBlock(r, toolerr.CodeNotFound)+
		"Fallback tools (offered as use_fallback:<tool> in actions):\n"+
		"- geocode_backup: after transient, rate_limit or upstream failures.\n"+
		"- queue_geocode (mutates): after transient failures.\n", block)
	assert.Equal(t, MCPErrorsBlock(r, toolerr.CodeNotFound), MCPToolErrorsBlock(r, "route", toolerr.CodeNotFound), "no fallbacks: the same block")
	assert.Equal(t, "", MCPToolErrorsBlock(r, "route", "NOPE"))
	assert.Equal(t, "## Errors\nFallback tools (offered as use_fallback:<tool> in actions):\n"+
		"- geocode_backup: after transient, rate_limit or upstream failures.\n"+
		"- queue_geocode (mutates): after transient failures.\n", MCPToolErrorsBlock(r, "geocode", "NOPE"))
}
