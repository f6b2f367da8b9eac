package toolerrmcpgo_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/mcptest"
	"github.com/toolerr/toolerr/middleware/toolerrmcpgo"
)

// tsCall is one call of client.mjs.
type tsCall struct {
	Name      string         `json:"name"`
	Arguments map[string]any `json:"arguments"`
}

// tsOutcome is what client.mjs printed for one call.
type tsOutcome struct {
	Result map[string]any `json:"result"`
	Threw  string         `json:"threw"`
}

// runTSClient runs the suite's TypeScript client (client.mjs, in
// mcptest.TSClientDir) against url and returns the tools it listed
// (name → whether it has an outputSchema) and each call's outcome by tool.
func runTSClient(t *testing.T, url string, calls []tsCall) (map[string]bool, map[string]tsOutcome) {
	t.Helper()
	node := mcptest.RequireTSClient(t)
	arg, err := json.Marshal(calls)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "client.mjs", url, string(arg))
	cmd.Dir = mcptest.TSClientDir()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	require.NoError(t, err, "client.mjs: %s", stderr.String())
	tools, out := map[string]bool{}, map[string]tsOutcome{}
	sc := bufio.NewScanner(strings.NewReader(string(stdout)))
	sc.Buffer(make([]byte, 0, 1<<20), 1<<20)
	for sc.Scan() {
		var line struct {
			Tools []struct {
				Name            string `json:"name"`
				HasOutputSchema bool   `json:"hasOutputSchema"`
			} `json:"tools"`
			Tool string `json:"tool"`
			tsOutcome
		}
		require.NoError(t, json.Unmarshal(sc.Bytes(), &line), sc.Text())
		for _, tool := range line.Tools {
			tools[tool.Name] = tool.HasOutputSchema
		}
		if line.Tool != "" {
			out[line.Tool] = line.tsOutcome
		}
	}
	return tools, out
}

// TestTypeScriptClient is the agent host's view of what only mcp-go has,
// with the official TypeScript SDK over streamable HTTP (stateless and
// stateful) under toolerr's middleware; the conformance suite checks
// every other failure with this client. A tool whose outputSchema comes
// from mcp-go's typed builder (mcp.WithOutputSchema) fails without a
// problem object in structuredContent, where the SDK would throw; a panic
// under server.WithRecovery given before Install, and arguments rejected
// by mcp-go's validation of a schema built with mcp.NewTool's options,
// reach the client as isError results; the answering tool of unknown names
// is not listed.
func TestTypeScriptClient(t *testing.T) {
	for _, path := range []string{"/mcp", "/mcp-session"} {
		t.Run(path, func(t *testing.T) {
			r := newRig(t, recoveryOuter, unknownOn, server.WithInputSchemaValidation())
			tools, out := runTSClient(t, r.url+path, []tsCall{
				{Name: "refund_typed", Arguments: map[string]any{"order_id": "ord_conflict"}},
				{Name: "nil_map", Arguments: map[string]any{}},
				{Name: "charge", Arguments: map[string]any{"amount": 900, "currency": "EUR"}},
			})
			assert.True(t, tools["refund_typed"], "the typed tool lists its outputSchema")
			assert.NotContains(t, tools, "toolerr.unknown_tool")
			want := map[string]string{"refund_typed": toolerr.CodeConflict, "nil_map": toolerr.CodeInternal,
				"charge": toolerr.CodeValidationFailed}
			for tool, code := range want {
				o := out[tool]
				require.Empty(t, o.Threw, "%s: the TypeScript client threw instead of returning the tool error", tool)
				require.NotNil(t, o.Result, tool)
				assert.Equal(t, true, o.Result["isError"], tool)
				text := textOf(t, o.Result)
				assert.True(t, strings.HasPrefix(text, code+" ("), "%s: %q", tool, text)
				meta, _ := o.Result["_meta"].(map[string]any)
				p, _ := meta[toolerrmcpgo.MetaProblem].(map[string]any)
				assert.Equal(t, code, p["code"], "%s: the problem travels in _meta", tool)
			}
			assert.NotContains(t, out["refund_typed"].Result, "structuredContent", "the outputSchema is not broken")
			assert.Contains(t, out["charge"].Result, "structuredContent", "a tool without one has the problem there too")
		})
	}
}
