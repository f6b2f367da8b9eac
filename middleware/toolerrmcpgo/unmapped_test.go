package toolerrmcpgo_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/middleware/toolerrmcpgo"
	"github.com/toolerr/toolerr/middleware/unmapped"
	"github.com/toolerr/toolerr/translate"
)

// TestOutboundUnmappedIsSampled: a tool whose outbound call reads a
// response no translator maps (translate.Response under the call's
// context) has it sampled, sanitized, with WithUnmappedSamples.
func TestOutboundUnmappedIsSampled(t *testing.T) {
	vendor := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(418)
		_, _ = io.WriteString(w, "brewing refused for key sk_live_51Habcdefghijklmnopqrstuv")
	}))
	t.Cleanup(vendor.Close)
	samples := unmapped.New(unmapped.WithLogger(quiet))
	s := server.NewMCPServer("harbor", "v0.0.1", server.WithToolCapabilities(true))
	toolerrmcpgo.Install(s, toolerrmcpgo.WithLogger(quiet), toolerrmcpgo.WithUnmappedSamples(samples))
	s.AddTool(mcp.NewTool("brew"), func(ctx context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
		r, err := http.NewRequestWithContext(ctx, "GET", vendor.URL, nil)
		if err != nil {
			return nil, err
		}
		resp, err := http.DefaultClient.Do(r)
		if err != nil {
			return nil, err
		}
		defer resp.Body.Close()
		return nil, translate.Response(resp)
	})
	res := callTool(t, s, "brew", map[string]any{})
	assert.Equal(t, "UPSTREAM_UNCLASSIFIED", problemOf(t, res)["code"])
	got := samples.Samples()
	require.Len(t, got, 1)
	assert.Equal(t, 418, got[0].Status)
	assert.Contains(t, got[0].Body, "brewing refused")
	assert.NotContains(t, got[0].Body, "sk_live_51Habcdefghijklmnopqrstuv")
}
