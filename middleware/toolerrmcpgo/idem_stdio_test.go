package toolerrmcpgo_test

import (
	"context"
	"io"
	"strings"
	"sync/atomic"
	"testing"

	mcpclient "github.com/mark3labs/mcp-go/client"
	"github.com/mark3labs/mcp-go/client/transport"
	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/middleware/toolerrmcpgo"
)

// stdioAgent serves s over mcp-go's stdio transport (a pair of pipes, as
// a host's child process would) and returns mcp-go's client of it.
func stdioAgent(t *testing.T, s *server.MCPServer) *mcpclient.Client {
	t.Helper()
	toServer, clientOut := io.Pipe()
	clientIn, fromServer := io.Pipe()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		_ = server.NewStdioServer(s).Listen(ctx, toServer, fromServer)
	}()
	c := mcpclient.NewClient(transport.NewIO(clientIn, clientOut, io.NopCloser(strings.NewReader(""))))
	require.NoError(t, c.Start(ctx))
	t.Cleanup(func() {
		_ = c.Close()
		cancel()
		_ = toServer.Close()
		_ = fromServer.Close()
		<-done
	})
	_, err := c.Initialize(ctx, mcp.InitializeRequest{})
	require.NoError(t, err)
	return c
}

// TestStdioSessionIsNoCaller: mcp-go names every stdio session "stdio",
// in every process, so it scopes no key: a keyed call over stdio is
// UNAUTHENTICATED, unless idempotency.SharedAnonymousScope says the one
// client is every caller; then a retry replays.
func TestStdioSessionIsNoCaller(t *testing.T) {
	for _, shared := range []bool{false, true} {
		var runs atomic.Int32
		var opts []idempotency.Option
		if shared {
			opts = append(opts, idempotency.SharedAnonymousScope())
		}
		logger, _ := newLogger()
		s := server.NewMCPServer("labels", "1.0.0")
		toolerrmcpgo.Install(s, toolerrmcpgo.WithLogger(logger), toolerrmcpgo.WithIdempotency(nil, opts...))
		s.AddTool(mcp.NewTool("create_label", mcp.WithDestructiveHintAnnotation(false)),
			func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
				runs.Add(1)
				return mcp.NewToolResultText("label L-1"), nil
			})
		c := stdioAgent(t, s)
		call := func() *mcp.CallToolResult {
			req := mcp.CallToolRequest{}
			req.Params.Name = "create_label"
			req.Params.Meta = &mcp.Meta{AdditionalFields: map[string]any{toolerrmcpgo.MetaIdempotencyKey: "k-stdio"}}
			res, err := c.CallTool(context.Background(), req)
			require.NoError(t, err)
			return res
		}
		first, again := call(), call()
		if !shared {
			require.True(t, first.IsError)
			p := first.Meta.AdditionalFields[toolerrmcpgo.MetaProblem].(map[string]any)
			assert.Equal(t, toolerr.CodeUnauthenticated, p["code"])
			assert.EqualValues(t, 0, runs.Load(), "a refused call does not run")
			continue
		}
		require.False(t, first.IsError)
		assert.Equal(t, true, again.Meta.AdditionalFields[toolerrmcpgo.MetaReplayed])
		assert.Equal(t, first.Content, again.Content)
		assert.EqualValues(t, 1, runs.Load())
	}
}
