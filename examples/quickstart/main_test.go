package main

import (
	"context"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestDemo(t *testing.T) {
	var out strings.Builder
	require.NoError(t, runDemo(context.Background(), &out))
	got := out.String()
	validation, rest, ok := strings.Cut(got, "POST /tools/track_shipment")
	require.True(t, ok, got)
	relayed, panicked, ok := strings.Cut(rest, "POST /tools/export_report")
	require.True(t, ok, got)

	for _, member := range []string{`"code": "VALIDATION_FAILED"`, `"field": "/limit"`, `"allowed_values"`, `"maximum": 100`,
		`"suggested_value": 100`, `"hint": "Set limit between 1 and 100`, `"field": "/status"`, `"suggested_value": "shipped"`,
		`"example_request": {`, `"Read violations: each names an argument`} {
		assert.Contains(t, validation, member)
	}
	assert.Contains(t, relayed, "-> 503 application/problem+json")
	assert.Contains(t, relayed, `"code": "UPSTREAM_UNAVAILABLE"`)
	assert.Contains(t, relayed, `"retryable": true`)
	assert.Contains(t, relayed, `"tool": "track_shipment"`)
	assert.Contains(t, relayed, `"vendor": "nginx"`, "the proxy's page, not the carrier's: the gateway translator says so")
	for _, leak := range []string{"<html", "<center>", "nginx/1.25.3"} {
		assert.NotContains(t, relayed, leak, "the HTML page must not reach the agent")
	}

	assert.Contains(t, panicked, "-> 500 application/problem+json")
	assert.Contains(t, panicked, `"code": "INTERNAL_ERROR"`)
	assert.Contains(t, panicked, `"request_id"`)
	for _, leak := range []string{"index out of range", "goroutine", "main.go", "quarterly", "runtime error"} {
		assert.NotContains(t, panicked, leak, "the panic must not reach the agent")
	}
}
