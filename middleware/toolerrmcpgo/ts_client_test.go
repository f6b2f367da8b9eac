package toolerrmcpgo_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// tsClientDir holds the official TypeScript MCP SDK and client.mjs, which
// drives it; they are middleware/mcptool's (npm ci there, as .ci/run
// does).
const tsClientDir = "../mcptool/testdata/tsclient"

// requireTSClient returns the node binary. Without node or the installed
// SDK the test is skipped on a developer's machine and fails in CI
// (CI=true), where .ci/run installs both.
func requireTSClient(t *testing.T) string {
	t.Helper()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(tsClientDir, "node_modules", "@modelcontextprotocol", "sdk", "package.json"))
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the TypeScript MCP client is required in CI: %v (run npm ci in %s)", err, tsClientDir)
		}
		t.Skipf("no TypeScript MCP client (%v); npm ci in %s", err, tsClientDir)
	}
	return node
}

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

// runTSClient runs client.mjs against url and returns the tools it listed
// (name → whether it has an outputSchema) and each call's outcome by tool.
func runTSClient(t *testing.T, url string, calls []tsCall) (map[string]bool, map[string]tsOutcome) {
	t.Helper()
	node := requireTSClient(t)
	arg, err := json.Marshal(calls)
	require.NoError(t, err)
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "client.mjs", url, string(arg))
	cmd.Dir = tsClientDir
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

// TestTypeScriptClient is the agent host's view, with the official
// TypeScript SDK over streamable HTTP (stateless and stateful) under
// toolerr's middleware: no call throws, not even that of a tool with an
// outputSchema; each failure is an isError result whose only text is the
// observation and whose _meta holds the problem; the answering tool of
// unknown names is not listed.
func TestTypeScriptClient(t *testing.T) {
	for _, path := range []string{"/mcp", "/mcp-session"} {
		t.Run(path, func(t *testing.T) {
			r := newRig(t, recoveryOuter, unknownOn, server.WithInputSchemaValidation())
			tools, out := runTSClient(t, r.url+path, []tsCall{
				{Name: "refund_typed", Arguments: map[string]any{"order_id": "ord_conflict"}},
				{Name: "refund_order", Arguments: map[string]any{"order_id": "ord_conflict"}},
				{Name: "db_down", Arguments: map[string]any{}},
				{Name: "nil_map", Arguments: map[string]any{}},
				{Name: "charge", Arguments: map[string]any{"amount": 900, "currency": "EUR"}},
				{Name: "refund_ordr", Arguments: map[string]any{"order_id": "ord_conflict"}},
			})
			assert.True(t, tools["refund_typed"], "the typed tool lists its outputSchema")
			assert.NotContains(t, tools, "toolerr.unknown_tool")
			want := map[string]string{"refund_typed": toolerr.CodeConflict, "refund_order": toolerr.CodeConflict,
				"db_down": toolerr.CodeInternal, "nil_map": toolerr.CodeInternal, "charge": toolerr.CodeValidationFailed,
				"refund_ordr": toolerr.CodeToolNotFound}
			for tool, code := range want {
				o := out[tool]
				require.Empty(t, o.Threw, "%s: the TypeScript client threw instead of returning the tool error", tool)
				require.NotNil(t, o.Result, tool)
				assert.Equal(t, true, o.Result["isError"], tool)
				text := textOf(t, o.Result)
				assert.True(t, strings.HasPrefix(text, code+" ("), "%s: %q", tool, text)
				assert.NotContains(t, text, dbSecret)
				meta, _ := o.Result["_meta"].(map[string]any)
				p, _ := meta["io.toolerr/problem"].(map[string]any)
				assert.Equal(t, code, p["code"], "%s: the problem travels in _meta", tool)
				assert.Contains(t, text, "\nrequest_id: "+p["request_id"].(string), tool)
			}
			assert.NotContains(t, out["refund_typed"].Result, "structuredContent", "the outputSchema is not broken")
			assert.Contains(t, out["refund_order"].Result, "structuredContent")
		})
	}
}
