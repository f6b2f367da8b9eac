package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// testAPIKey is the key the tests hand the agents; chatServer accepts it
// only as the bearer token.
const testAPIKey = "sk-harbor-test-0123456789abcdef"

// testModel is the model name the tests ask chatServer for.
const testModel = "harbor-scripted-model"

// clearOpenAIEnv unsets, for the test, the variables the OpenAI SDK reads
// by itself, so that nothing of the machine's environment reaches the
// loopback server.
func clearOpenAIEnv(t *testing.T) {
	for _, name := range []string{"OPENAI_API_KEY", "OPENAI_BASE_URL", "OPENAI_ADMIN_KEY", "OPENAI_ORG_ID",
		"OPENAI_PROJECT_ID", "OPENAI_WEBHOOK_SECRET", "OPENAI_CUSTOM_HEADERS"} {
		t.Setenv(name, "") // restored when the test ends
		require.NoError(t, os.Unsetenv(name))
	}
}

// modelCfg returns the settings of a model-driven run over tasks tasks
// against srv.
func modelCfg(srv *chatServer, tasks int) config {
	cfg := defaultConfig()
	cfg.Tasks, cfg.Workers = tasks, 4
	cfg.Model = &modelConfig{Model: testModel, BaseURL: srv.baseURL(), APIKey: testAPIKey,
		CallTimeout: 10 * time.Second, MaxTurns: defaultModelTurns}
	return cfg
}

// TestModelAgentsCompare drives both agents over 50 seeded tasks through
// the Chat Completions API of chatServer, whose scripted model follows a
// toolerr observation and repeats anything else. Every request is well
// formed (the tools declared, each result answering an issued call). The
// rows show what the scripted agents' rows show: the toolerr agent pays no
// label twice, sees no secret and no HTML, takes the backup geocoder and
// leaves no task failed; the baseline pays duplicates and sees leaks. With
// a model that acts as the scripted agents do, the loop counts what they
// count: the same outcomes, calls and labels per agent.
func TestModelAgentsCompare(t *testing.T) {
	clearOpenAIEnv(t)
	srv := newChatServer(t, testAPIKey, testModel)
	before := runtime.NumGoroutine() // the chat server's stay until the test ends
	cfg := modelCfg(srv, 50)
	rows, err := simulate(context.Background(), cfg)
	require.NoError(t, err)
	require.Empty(t, srv.rejected(), "every request is one the API accepts")
	require.Len(t, rows, 2)
	naive, withToolerr := rows[0], rows[1]
	require.Equal(t, "naive", naive.Agent)
	require.Equal(t, "toolerr", withToolerr.Agent)

	assert.Zero(t, withToolerr.Duplicates, "toolerr agent: duplicate paid labels")
	assert.Zero(t, withToolerr.SecretBodies, "toolerr agent: secrets or internal hosts")
	assert.Zero(t, withToolerr.HTMLBodies, "toolerr agent: HTML")
	assert.Zero(t, withToolerr.Failed, "toolerr agent: every task completes or is escalated")
	assert.Positive(t, withToolerr.Fallbacks, "toolerr agent: the backup geocoder")
	assert.Greater(t, withToolerr.Completed, naive.Completed)
	assert.Positive(t, naive.Duplicates, "baseline: the label retried after a timeout is paid twice")
	assert.Positive(t, naive.SecretBodies, "baseline: the leaked key")
	assert.Positive(t, naive.HTMLBodies, "baseline: HTML pages")

	scriptedCfg := cfg
	scriptedCfg.Model = nil
	scripted, err := simulate(context.Background(), scriptedCfg)
	require.NoError(t, err)
	for i, row := range rows {
		want := scripted[i]
		want.Waited, row.Waited = 0, 0 // the scripted agent waits out Retry-After on the simulated clock; a model cannot
		assert.Equal(t, want, row, row.Agent)
	}

	var out strings.Builder
	require.NoError(t, printTable(&out, cfg, rows))
	assert.Contains(t, out.String(), "harbor: 50 tasks, seed 1, agents driven by model "+testModel)
	assert.Contains(t, out.String(), "duplicate paid labels")
	waitGoroutines(t, before)
}

// runModelTask runs agent over one task of scenario sc against a fresh
// chatServer and returns the row and the server.
func runModelTask(t *testing.T, agent string, sc scenario, edit func(*task)) (summary, *chatServer) {
	t.Helper()
	srv := newChatServer(t, testAPIKey, testModel)
	tk := newTasks(1, 3)[0]
	tk.Scenario, tk.Service, tk.Address = sc, "ground", ""
	if edit != nil {
		edit(&tk)
	}
	row, err := runWorld(context.Background(), modelCfg(srv, 1), agent, []task{tk})
	require.NoError(t, err)
	require.Empty(t, srv.rejected())
	return row, srv
}

// TestModelFollowsObservation shows the observation reaching the model and
// changing its next call: given a mistyped SKU, the toolerr tool's
// observation carries the catalog's spelling as suggested_value, and the
// model's next lookup uses it; the baseline's model is fed the carrier's
// HTML 404 page and can only repeat the call, four times, and fail.
func TestModelFollowsObservation(t *testing.T) {
	clearOpenAIEnv(t)
	typo := func(tk *task) { tk.SKU = "sku_1007 " }

	row, srv := runModelTask(t, "toolerr", scSKUTypo, typo)
	assert.Equal(t, 1, row.Completed)
	calls := srv.issuedCalls()
	require.GreaterOrEqual(t, len(calls), 2)
	assert.Equal(t, issuedCall{Order: "ORD-00001", Tool: "lookup_inventory", Args: map[string]any{"sku": "sku_1007 "}}, calls[0])
	assert.Equal(t, issuedCall{Order: "ORD-00001", Tool: "lookup_inventory", Args: map[string]any{"sku": "SKU-1007"}}, calls[1])
	fed := srv.requests()[1]
	assert.Contains(t, fed, `suggested_value: \"SKU-1007\"`, "the second request carries the observation")

	row, srv = runModelTask(t, "naive", scSKUTypo, typo)
	assert.Equal(t, 1, row.Failed)
	assert.Equal(t, 4, row.HTMLBodies)
	calls = srv.issuedCalls()
	require.Len(t, calls, 4)
	for _, c := range calls {
		assert.Equal(t, map[string]any{"sku": "sku_1007 "}, c.Args, "the baseline's model has nothing to correct the SKU with")
	}
}

// TestModelRequestsCarryNoSecret runs the task whose carrier error leaks an
// API key and an internal host: no request the toolerr agent sends the
// model holds either, nor HTML, nor the tool server's credential, and the
// model escalates; the baseline's requests do hold the key, so the check
// can fail. chatServer refuses any request with the API key outside the
// Authorization header.
func TestModelRequestsCarryNoSecret(t *testing.T) {
	clearOpenAIEnv(t)
	row, srv := runModelTask(t, "toolerr", scLeakedKey, nil)
	assert.Equal(t, 1, row.Escalated)
	bodies := srv.requests()
	require.NotEmpty(t, bodies)
	for _, b := range bodies {
		for _, secret := range []string{plantedKey, internalHost, "<html", agentCredential, testAPIKey} {
			assert.NotContains(t, b, secret)
		}
	}

	row, srv = runModelTask(t, "naive", scLeakedKey, nil)
	assert.Equal(t, 1, row.Failed)
	assert.Contains(t, strings.Join(srv.requests(), "\n"), plantedKey, "the baseline feeds the model the leaked key")
}

// TestModelAgentBounds checks the loop's bounds: a task the model has not
// finished within -turns is failed, not completed; a model that does not
// answer in the per-call timeout ends the run with a deadline error; a
// cancelled context ends it at once.
func TestModelAgentBounds(t *testing.T) {
	clearOpenAIEnv(t)
	srv := newChatServer(t, testAPIKey, testModel)
	tk := newTasks(1, 3)[0]
	tk.Scenario, tk.Service, tk.Address = scClean, "ground", ""
	cfg := modelCfg(srv, 1)
	cfg.Model.MaxTurns = 3
	row, err := runWorld(context.Background(), cfg, "toolerr", []task{tk})
	require.NoError(t, err)
	assert.Equal(t, 1, row.Failed, "three turns do not reach the notification")
	assert.Equal(t, 3, row.CallsAll)

	hung := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		_, _ = io.Copy(io.Discard, r.Body) // read to its end, so that the server notices the client hang up
		<-r.Context().Done()
	}))
	defer hung.Close()
	cfg.Model.BaseURL, cfg.Model.CallTimeout = hung.URL+"/v1", 100*time.Millisecond
	start := time.Now()
	_, err = runWorld(context.Background(), cfg, "toolerr", []task{tk})
	assert.True(t, errors.Is(err, context.DeadlineExceeded), "got %v", err)
	assert.Less(t, time.Since(start), 5*time.Second)

	cfg.Model.CallTimeout = time.Minute
	ctx, cancel := context.WithCancel(context.Background())
	time.AfterFunc(100*time.Millisecond, cancel)
	_, err = runWorld(ctx, cfg, "naive", []task{tk, tk})
	assert.True(t, errors.Is(err, context.Canceled), "got %v", err)
}

// TestRunModelMode runs the command as a user does, with the variables
// in the environment: without OPENAI_API_KEY it says what is missing and
// exits 2 before any request; with them it prints the table of both
// agents over the default few tasks; with a wrong key the API's 401 ends
// the run with exit 1.
func TestRunModelMode(t *testing.T) {
	clearOpenAIEnv(t)
	srv := newChatServer(t, testAPIKey, testModel)
	env := map[string]string{"OPENAI_BASE_URL": srv.baseURL()}
	getenv := func(name string) string { return env[name] }
	var stdout, stderr strings.Builder
	code := run(context.Background(), []string{"-model", testModel}, getenv, &stdout, &stderr)
	assert.Equal(t, 2, code)
	assert.Contains(t, stderr.String(), "-model needs the API key in OPENAI_API_KEY")
	assert.Empty(t, stdout.String())
	assert.Empty(t, srv.requests(), "no request without a key")

	env["OPENAI_API_KEY"] = testAPIKey
	stdout.Reset()
	stderr.Reset()
	code = run(context.Background(), []string{"-model", testModel, "-timeout", "20s"}, getenv, &stdout, &stderr)
	require.Equal(t, 0, code, stderr.String())
	assert.Empty(t, srv.rejected())
	out := stdout.String()
	t.Log("\n" + out)
	assert.Contains(t, out, "harbor: 6 tasks, seed 1, agents driven by model "+testModel)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	require.Len(t, lines, 5, out) // title, blank, header, two rows
	assert.Equal(t, "naive", strings.Fields(lines[3])[0])
	assert.Equal(t, "toolerr", strings.Fields(lines[4])[0])

	env["OPENAI_API_KEY"] = "sk-wrong"
	stdout.Reset()
	stderr.Reset()
	code = run(context.Background(), []string{"-model", testModel, "-tasks", "1"}, getenv, &stdout, &stderr)
	assert.Equal(t, 1, code)
	assert.Contains(t, stderr.String(), "401")
	assert.NotContains(t, stderr.String(), "sk-wrong")
}

// TestModelAgentTranscriptBounds answers every request with ten tool calls
// at once: eight run, the other two are answered "not run" (every call
// gets its result, as the API requires); and arguments so long that one
// answer passes the transcript bound end the task after one request,
// failed.
func TestModelAgentTranscriptBounds(t *testing.T) {
	clearOpenAIEnv(t)
	for _, c := range []struct {
		name     string
		argBytes int
		requests int // model requests the task makes
		reason   string
	}{
		{"calls per answer", 10, 2, "no final answer in 2 model turns"},
		{"transcript", 10 << 10, 1, "transcript over 65536 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			var mu sync.Mutex
			var bodies []string
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				b, _ := io.ReadAll(r.Body)
				mu.Lock()
				bodies = append(bodies, string(b))
				n := len(bodies)
				mu.Unlock()
				args, _ := json.Marshal(map[string]string{"sku": strings.Repeat("x", c.argBytes)})
				var calls []any
				for i := range 10 {
					calls = append(calls, map[string]any{"id": fmt.Sprintf("call_%d_%d", n, i), "type": "function",
						"function": map[string]any{"name": "lookup_inventory", "arguments": string(args)}})
				}
				w.Header().Set("Content-Type", "application/json")
				_ = json.NewEncoder(w).Encode(map[string]any{"id": "chatcmpl", "object": "chat.completion", "model": testModel,
					"choices": []any{map[string]any{"index": 0, "finish_reason": "tool_calls",
						"message": map[string]any{"role": "assistant", "content": nil, "tool_calls": calls}}}})
			}))
			defer srv.Close()
			cfg := defaultConfig()
			var why strings.Builder
			cfg.Tasks, cfg.Verbose = 1, &why
			cfg.Model = &modelConfig{Model: testModel, BaseURL: srv.URL + "/v1", APIKey: testAPIKey, CallTimeout: 10 * time.Second, MaxTurns: 2}
			tk := newTasks(1, 3)[0]
			row, err := runWorld(context.Background(), cfg, "toolerr", []task{tk})
			require.NoError(t, err)
			assert.Equal(t, 1, row.Failed)
			assert.Equal(t, 8*c.requests, row.CallsAll, "eight calls run per answer")
			assert.Contains(t, why.String(), c.reason)
			mu.Lock()
			defer mu.Unlock()
			require.Len(t, bodies, c.requests)
			if c.requests == 2 {
				assert.Equal(t, 2, strings.Count(bodies[1], "not run: at most 8 tool calls are run from one answer"))
				assert.Equal(t, 10, strings.Count(bodies[1], `"role":"tool"`))
			}
		})
	}
}
