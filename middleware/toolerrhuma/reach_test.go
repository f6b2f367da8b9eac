package toolerrhuma_test

import (
	"bytes"
	"context"
	"log/slog"
	"net/http"
	"strings"
	"testing"

	"github.com/danielgtaylor/huma/v2"
	"github.com/stretchr/testify/assert"
	"github.com/toolerr/toolerr/middleware/toolerrhuma"
)

// TestReachWarning checks that an operation registered out of the reach of
// the API Install returns (before Install, or on the API passed to it) is
// named in a warning at startup, and one registered on it is not.
func TestReachWarning(t *testing.T) {
	var logs bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })

	op := func(id, path string) huma.Operation {
		return huma.Operation{OperationID: id, Method: http.MethodGet, Path: path}
	}
	h := func(context.Context, *struct{}) (*struct{}, error) { return &struct{}{}, nil }
	api, _ := newMux(huma.DefaultConfig("Orders", "1.0.0"), true)
	huma.Register(api, op("early-op", "/early"), h)
	reached := toolerrhuma.Install(api)
	huma.Register(api, op("raw-op", "/raw"), h)
	huma.Register(reached, op("good-op", "/good"), h)
	huma.Register(huma.NewGroup(reached, "/v1"), op("grouped-op", "/grouped"), h)

	out := logs.String()
	assert.Equal(t, 1, strings.Count(out, "operation=early-op"), out)
	assert.Contains(t, out, "before Install")
	assert.Equal(t, 1, strings.Count(out, "operation=raw-op"), out)
	assert.NotContains(t, out, "good-op")
	assert.NotContains(t, out, "grouped-op")
}
