package mcptool_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/mcptool"
)

// TestEveryMemberIsSanitized: an MCP tool's error with a secret and an
// internal address in every member reaches the client with none of them,
// in the structured problem, the text content and the log record, and
// with the call's own request id.
func TestEveryMemberIsSanitized(t *testing.T) {
	const (
		key  = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
		tok  = "ghp_R4nd0mT0kenV4lueF0rFuzz1ngAbCdEf0123"
		host = "db-7.prod.internal"
	)
	dirty := "use " + key + " or " + tok + " on " + host
	h := func(ctx context.Context, _ *mcp.CallToolRequest, in trackArgs) (*mcp.CallToolResult, any, error) {
		e := toolerr.Default().New(toolerr.CodeValidationFailed, dirty).
			WithField("/" + key).
			WithAllowedValues([]any{dirty}).
			WithSuggestedValue(map[string]any{"token": tok}).
			WithDetails(map[string]any{"deep": []any{map[string]any{"x": dirty}}, "order_id": "ord_8f3a2b91"}).
			WithExampleRequest(map[string]any{"to": host}).
			WithIntent(toolerr.Intent{Operation: dirty, Recovery: dirty}).
			WithUpstream(toolerr.Upstream{Vendor: "stripe", Code: key, RequestID: "req_" + key}).
			WithItems(toolerr.ItemError{Index: 0, Err: toolerr.Default().New(toolerr.CodeNotFound, dirty)}).
			WithRequestID(key)
		return nil, nil, e
	}
	logger, logs := newLogger()
	server := newServer()
	mcptool.AddTool(server, &mcp.Tool{Name: "track"}, h, mcptool.WithLogger(logger))
	res := call(t, connect(t, server), "track", map[string]any{})
	assert.True(t, res.IsError)

	structured, err := json.Marshal(res) // _meta, structuredContent and content
	assert.NoError(t, err)
	assert.Contains(t, string(structured), mcptool.MetaProblem)
	for _, m := range []string{"4eC39HqLyjWD", "R4nd0mT0ken", "prod.internal"} {
		assert.NotContains(t, string(structured), m, "structured")
	}
	// The log record's members are the sanitized error's; its cause is
	// the Go error with its secrets redacted, and keeps internal hosts for
	// the operator, as the HTTP middleware's does.
	var rec map[string]any
	assert.NoError(t, json.Unmarshal([]byte(logs.String()), &rec))
	assert.Contains(t, rec["cause"], "db-7.prod.internal", "the operator's log keeps the host")
	for k, v := range rec {
		s, _ := v.(string)
		for _, m := range []string{"4eC39HqLyjWD", "R4nd0mT0ken"} {
			assert.NotContains(t, s, m, "log "+k)
		}
		if k != "cause" {
			assert.NotContains(t, s, "prod.internal", "log "+k)
		}
	}
	for _, s := range text(t, res) {
		assert.NotContains(t, s, "4eC39HqLyjWD")
		assert.NotContains(t, s, "R4nd0mT0ken")
	}
	p := problem(t, res)
	assert.NotEqual(t, key, p["request_id"])
	assert.Equal(t, "ord_8f3a2b91", p["details"].(map[string]any)["order_id"], "benign identifiers survive")
}
