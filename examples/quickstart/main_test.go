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
	validation, panicked, ok := strings.Cut(got, "POST /tools/export_report")
	require.True(t, ok, got)

	for _, member := range []string{`"code": "VALIDATION_FAILED"`, `"field": "limit"`, `"allowed_values"`, `"maximum": 100`, `"suggested_value": 100`, `"hint": "Reduce limit`} {
		assert.Contains(t, validation, member)
	}
	assert.Contains(t, panicked, "-> 500 application/problem+json")
	assert.Contains(t, panicked, `"code": "INTERNAL_ERROR"`)
	assert.Contains(t, panicked, `"request_id"`)
	for _, leak := range []string{"index out of range", "goroutine", "main.go", "quarterly", "runtime error"} {
		assert.NotContains(t, panicked, leak, "the panic must not reach the agent")
	}
}
