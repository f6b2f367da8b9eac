package mcptest

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/toolerr/toolerr/middleware/mcptool"
)

// TSClientDir returns the folder of the TypeScript client: the official
// TypeScript MCP SDK (package.json pins it; `npm ci` there installs it, as
// .ci/run does) and client.mjs, which drives it. It is found next to this
// package's source, so that the suite finds it from any module that runs
// it (nested modules use the repository's copy through their replace
// directive).
func TSClientDir() string {
	_, file, _, ok := runtime.Caller(0)
	if !ok {
		return filepath.Join("testdata", "tsclient")
	}
	return filepath.Join(filepath.Dir(file), "testdata", "tsclient")
}

// RequireTSClient returns the node binary that runs the TypeScript client.
// Without node or the installed SDK, t is skipped on a developer's machine
// and fails in CI (the CI environment variable set), where .ci/run
// installs both.
func RequireTSClient(t testing.TB) string {
	t.Helper()
	dir := TSClientDir()
	node, err := exec.LookPath("node")
	if err == nil {
		_, err = os.Stat(filepath.Join(dir, "node_modules", "@modelcontextprotocol", "sdk", "package.json"))
	}
	if err != nil {
		if os.Getenv("CI") != "" {
			t.Fatalf("the TypeScript MCP client is required in CI: %v (run npm ci in %s)", err, dir)
		}
		t.Skipf("no TypeScript MCP client (%v); npm ci in %s", err, dir)
	}
	return node
}

// tsCall is one call as client.mjs reads it.
type tsCall struct {
	Name          string          `json:"name"`
	Arguments     json.RawMessage `json:"arguments"`
	Meta          map[string]any  `json:"_meta,omitempty"`
	CancelAfterMS int64           `json:"cancelAfterMs,omitempty"`
}

// tsLine is one line client.mjs prints.
type tsLine struct {
	Tools  []map[string]any `json:"tools"`
	Index  *int             `json:"index"`
	Result map[string]any   `json:"result"`
	Threw  string           `json:"threw"`
}

// runTSClient is the official TypeScript SDK's client over streamable
// HTTP, one node process for all the calls of a group; header goes with
// every request (the transport's requestInit).
func runTSClient(t *testing.T, url string, header http.Header, calls []call) ([]map[string]any, []outcome) {
	t.Helper()
	node := RequireTSClient(t)
	in := make([]tsCall, len(calls))
	for i, c := range calls {
		in[i] = tsCall{Name: c.tool, Arguments: c.args, CancelAfterMS: c.cancelAfter.Milliseconds()}
		if c.key != "" {
			in[i].Meta = map[string]any{mcptool.MetaIdempotencyKey: c.key}
		}
	}
	arg, err := json.Marshal(in)
	if err != nil {
		t.Fatalf("mcptest: %v", err)
	}
	headers := map[string]string{}
	for k := range header {
		headers[k] = header.Get(k)
	}
	hdr, err := json.Marshal(headers)
	if err != nil {
		t.Fatalf("mcptest: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), runTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, node, "client.mjs", url, string(arg), string(hdr))
	cmd.Dir = TSClientDir()
	var stderr strings.Builder
	cmd.Stderr = &stderr
	stdout, err := cmd.Output()
	if err != nil {
		t.Fatalf("mcptest: client.mjs: %v: %s", err, stderr.String())
	}
	var tools []map[string]any
	outs := make([]outcome, len(calls))
	seen := make([]bool, len(calls))
	sc := bufio.NewScanner(bytes.NewReader(stdout))
	sc.Buffer(make([]byte, 0, 1<<20), 16<<20)
	for sc.Scan() {
		var line tsLine
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil {
			t.Fatalf("mcptest: client.mjs printed %q: %v", sc.Text(), err)
		}
		switch {
		case line.Tools != nil:
			tools = line.Tools
		case line.Index != nil && *line.Index >= 0 && *line.Index < len(calls):
			i := *line.Index
			outs[i], seen[i] = outcome{call: calls[i], result: line.Result, threw: line.Threw}, true
		default:
			t.Fatalf("mcptest: client.mjs printed %q", sc.Text())
		}
	}
	for i, ok := range seen {
		if !ok {
			t.Fatalf("mcptest: client.mjs printed nothing for call %d (%s): %s", i, calls[i].tool, stderr.String())
		}
	}
	return tools, outs
}
