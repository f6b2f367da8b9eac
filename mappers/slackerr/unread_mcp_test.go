package slackerr_test

import (
	"bytes"
	"context"
	"log/slog"
	"strings"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/slack-go/slack"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/mappers/slackerr"
	"github.com/toolerr/toolerr/middleware/mcptool"
)

// TestUnreadSlackErrorIsNeverSilentOverMCP: a tool served by the MCP
// go-sdk through mcptool fails with a real slack-go error and no mapper
// reads it: the result is INTERNAL_ERROR, the adapter logs one WARN line
// for the type, naming the mapper to register, and counts each call in
// toolerr.upstream.unmapped; with the mapper registered, the result is
// NOT_FOUND and neither happens.
func TestUnreadSlackErrorIsNeverSilentOverMCP(t *testing.T) {
	client := server(t)
	for _, registered := range []bool{false, true} {
		var logs bytes.Buffer
		reader := sdkmetric.NewManualReader()
		opts := []mcptool.Option{
			mcptool.WithLogger(slog.New(slog.NewJSONHandler(&logs, nil))),
			mcptool.WithMeterProvider(sdkmetric.NewMeterProvider(sdkmetric.WithReader(reader))),
		}
		if registered {
			opts = append(opts, mcptool.WithErrorMappers(slackerr.Mapper()))
		}
		srv := mcp.NewServer(&mcp.Implementation{Name: "chat", Version: "v1.0.0"}, nil)
		srv.AddReceivingMiddleware(mcptool.Middleware(opts...))
		post := func(ctx context.Context, _ *mcp.CallToolRequest, _ struct{}) (*mcp.CallToolResult, struct{}, error) {
			_, _, err := client.PostMessageContext(ctx, "C-missing", slack.MsgOptionText("hello", false))
			return nil, struct{}{}, err
		}
		mcptool.AddTool(srv, &mcp.Tool{Name: "post"}, post, opts...)

		ctx := context.Background()
		st, ct := mcp.NewInMemoryTransports()
		ss, err := srv.Connect(ctx, st, nil)
		require.NoError(t, err)
		cs, err := mcp.NewClient(&mcp.Implementation{Name: "agent", Version: "v1.0.0"}, nil).Connect(ctx, ct, nil)
		require.NoError(t, err)
		for range 3 {
			res, err := cs.CallTool(ctx, &mcp.CallToolParams{Name: "post", Arguments: map[string]any{}})
			require.NoError(t, err)
			require.True(t, res.IsError)
			p, ok := res.Meta[mcptool.MetaProblem].(map[string]any)
			require.True(t, ok, "%v", res.Meta)
			if registered {
				assert.Equal(t, toolerr.CodeNotFound, p["code"])
			} else {
				assert.Equal(t, toolerr.CodeInternal, p["code"], "no mapper read it")
			}
		}
		_ = cs.Close()
		_ = ss.Close()

		warnings := strings.Count(logs.String(), unreadWarning)
		unmapped := unmappedCount(t, reader, "slack-go")
		if registered {
			assert.Zero(t, warnings)
			assert.Zero(t, unmapped)
			continue
		}
		assert.Equal(t, 1, warnings, "one line per Go type:\n%s", logs.String())
		assert.Contains(t, logs.String(), `"go_type":"slack.SlackErrorResponse"`)
		assert.Contains(t, logs.String(), "slackerr.Mapper()", "what to register")
		assert.EqualValues(t, 3, unmapped, "every unread error is counted")
	}
}
