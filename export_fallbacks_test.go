package toolerr

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestMarkdownListsFallbacks(t *testing.T) {
	plain := NewRegistry(Default())
	withFbs := geocoderRegistry(t)
	base := plain.Markdown()
	got := withFbs.Markdown()
	require.True(t, bytes.HasPrefix(got, base), "the codes' sections are unchanged; the fallbacks come last")
	assert.Equal(t, "\n## Fallback tools\n\n"+
		"A failure of a tool whose category a fallback covers carries `use_fallback:<fallback>` in its actions "+
		"and a hint that names it. A mutating fallback is never offered after an `auth`, `permission` or `policy` "+
		"failure, nor after a timeout or a failure that may have run of a write that carried no idempotency key.\n\n"+
		"| Tool | Fallback | Covers | Mutates |\n|---|---|---|---|\n"+
		"| `geocode` | `geocode_backup` | `transient`, `rate_limit`, `upstream` | no |\n"+
		"| `geocode` | `queue_geocode` | `transient`, `auth`, `upstream` | yes |\n"+
		"| `geocode` | `search_places` | `not_found`, `auth` | no |\n", string(got[len(base):]))
	assert.Equal(t, Default().Markdown(), base, "no fallbacks: byte-identical")
}

func TestOpenAPIListsFallbacks(t *testing.T) {
	plain, err := NewRegistry(Default()).OpenAPI()
	require.NoError(t, err)
	assert.NotContains(t, string(plain), OpenAPIFallbacksExtension, "no fallbacks: no extension")
	def, err := Default().OpenAPI()
	require.NoError(t, err)
	assert.Equal(t, def, plain)

	doc, err := geocoderRegistry(t).OpenAPI()
	require.NoError(t, err)
	var parsed struct {
		Components struct {
			Codes     []AgentErrorCode           `json:"x-agent-error-codes"`
			Fallbacks map[string][]AgentFallback `json:"x-agent-fallbacks"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(doc, &parsed))
	assert.NotEmpty(t, parsed.Components.Codes)
	assert.Equal(t, map[string][]AgentFallback{"geocode": {
		{Tool: "geocode_backup", On: []Category{CategoryTransient, CategoryRateLimit, CategoryUpstream}},
		{Tool: "queue_geocode", On: []Category{CategoryTransient, CategoryAuth, CategoryUpstream}, Mutates: true},
		{Tool: "search_places", On: []Category{CategoryNotFound, CategoryAuth}},
	}}, parsed.Components.Fallbacks)
}

func TestMCPToolErrorsBlock(t *testing.T) {
	r := NewRegistry(Default())
	require.NoError(t, r.DeclareFallbacks("geocode",
		Fallback{Tool: "geocode_backup", On: []Category{CategoryTransient, CategoryRateLimit, CategoryUpstream}},
		Fallback{Tool: "queue_geocode", On: []Category{CategoryTransient}, Mutates: true}))
	block := r.MCPToolErrorsBlock("geocode", CodeNotFound)
	assert.Equal(t, r.MCPErrorsBlock(CodeNotFound)+
		"Fallback tools (offered as use_fallback:<tool> in actions):\n"+
		"- geocode_backup: after transient, rate_limit or upstream failures.\n"+
		"- queue_geocode (mutates): after transient failures.\n", block)
	assert.Equal(t, r.MCPErrorsBlock(CodeNotFound), r.MCPToolErrorsBlock("route", CodeNotFound), "no fallbacks: the same block")
	assert.Equal(t, "", r.MCPToolErrorsBlock("route", "NOPE"))
	assert.Equal(t, "## Errors\nFallback tools (offered as use_fallback:<tool> in actions):\n"+
		"- geocode_backup: after transient, rate_limit or upstream failures.\n"+
		"- queue_geocode (mutates): after transient failures.\n", r.MCPToolErrorsBlock("geocode", "NOPE"))
}
