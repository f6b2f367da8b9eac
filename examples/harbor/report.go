package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/toolerr/toolerr"
)

// taskResult is what one agent did with one task, as measured from the
// outside: every tool call and every body the agent received.
type taskResult struct {
	Calls        int
	Completed    bool
	Escalated    bool
	SecretBodies int // bodies holding the planted key or the internal host
	HTMLBodies   int // bodies holding an HTML page
	Fallbacks    int // calls of a backup tool
	Refused      int // calls the thrash guard refused (REPEATED_FAILURE)
	Reason       string
}

// summary is one agent's row of the table.
type summary struct {
	Agent        string
	Tasks        int
	Completed    int
	Escalated    int
	Failed       int
	CallsDone    int // tool calls of completed tasks
	CallsAll     int // tool calls of every task, failed and escalated ones included
	PaidLabels   int
	Duplicates   int
	SecretBodies int
	HTMLBodies   int
	Fallbacks    int // calls of a backup tool
	Refused      int // identical failing calls the thrash guard refused
	Waited       time.Duration
}

// MeanCalls returns the mean number of tool calls per completed task.
func (s summary) MeanCalls() float64 {
	if s.Completed == 0 {
		return 0
	}
	return float64(s.CallsDone) / float64(s.Completed)
}

// MeanCallsPerTask returns the mean number of tool calls per task, every
// call of every task counted, failed and escalated tasks included.
func (s summary) MeanCallsPerTask() float64 {
	if s.Tasks == 0 {
		return 0
	}
	return float64(s.CallsAll) / float64(s.Tasks)
}

// summarize adds up an agent's task results and the carrier's bill.
func summarize(agent string, results []taskResult, paid, duplicates int, waited time.Duration) summary {
	s := summary{Agent: agent, Tasks: len(results), PaidLabels: paid, Duplicates: duplicates, Waited: waited}
	for _, r := range results {
		s.CallsAll += r.Calls
		switch {
		case r.Completed:
			s.Completed++
			s.CallsDone += r.Calls
		case r.Escalated:
			s.Escalated++
		default:
			s.Failed++
		}
		s.SecretBodies += r.SecretBodies
		s.HTMLBodies += r.HTMLBodies
		s.Fallbacks += r.Fallbacks
		s.Refused += r.Refused
	}
	return s
}

// printTable writes the comparison table.
func printTable(out io.Writer, cfg config, rows []summary) error {
	if cfg.Model != nil {
		fmt.Fprintf(out, "harbor: %d tasks, seed %d, agents driven by model %s (at most %d model turns per task)\n\n",
			cfg.Tasks, cfg.Seed, cfg.Model.Model, cfg.Model.MaxTurns)
	} else {
		fmt.Fprintf(out, "harbor: %d tasks, seed %d, naive agent retries %d times\n\n", cfg.Tasks, cfg.Seed, cfg.NaiveRetries)
	}
	tw := tabwriter.NewWriter(out, 0, 0, 2, ' ', tabwriter.AlignRight)
	fmt.Fprintln(tw, "agent\tcompleted\tescalated\tfailed\tcalls/task\tcalls/completed\tpaid labels\tduplicate paid labels\tbodies with secret/host\tbodies with HTML\tfallbacks taken\trepeated calls refused\tsimulated wait\t")
	for _, r := range rows {
		fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%.2f\t%.2f\t%d\t%d\t%d\t%d\t%d\t%d\t%s\t\n", r.Agent, r.Completed, r.Escalated, r.Failed,
			r.MeanCallsPerTask(), r.MeanCalls(), r.PaidLabels, r.Duplicates, r.SecretBodies, r.HTMLBodies, r.Fallbacks, r.Refused, r.Waited)
	}
	return tw.Flush()
}

// leakMarkers are the strings that must never reach an agent.
var leakMarkers = []string{plantedKey, internalHost, "sk_live_"}

// scan counts what a response body would have shown the model.
func (r *taskResult) scan(body []byte) {
	for _, m := range leakMarkers {
		if bytes.Contains(body, []byte(m)) {
			r.SecretBodies++
			break
		}
	}
	if bytes.Contains(bytes.ToLower(body), []byte("<html")) {
		r.HTMLBodies++
	}
}

// agentCredential is the bearer token both simulated agents present: one
// tenant of the tool server.
const agentCredential = "harbor-agent-credential"

// callTool makes one tool call for an agent, counting it and scanning what
// came back. key, when set, is sent as the Idempotency-Key, and accept as
// Accept. It returns the status and body, or an error when no response
// arrived.
func callTool(ctx context.Context, client *http.Client, base string, res *taskResult, tool string, args any, key, accept string) (int, []byte, error) {
	b, err := json.Marshal(args)
	if err != nil {
		return 0, nil, err
	}
	return callToolRaw(ctx, client, base, res, tool, b, key, accept)
}

// callToolRaw is callTool with the arguments as sent: a model's argument
// text, which may not even be JSON, goes to the tool as it is.
func callToolRaw(ctx context.Context, client *http.Client, base string, res *taskResult, tool string, args []byte, key, accept string) (int, []byte, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/tools/"+tool, bytes.NewReader(args))
	if err != nil {
		return 0, nil, err
	}
	req.Header.Set("Content-Type", "application/json")
	// The agent runtime's credential: idempotency scopes keys by it, and
	// refuses keyed calls from anonymous callers.
	req.Header.Set("Authorization", "Bearer "+agentCredential)
	if key != "" {
		req.Header.Set("Idempotency-Key", key)
	}
	if accept != "" {
		req.Header.Set("Accept", accept)
	}
	res.Calls++
	if strings.HasSuffix(tool, "_backup") {
		res.Fallbacks++
	}
	resp, err := client.Do(req)
	if err != nil {
		res.scan([]byte(err.Error()))
		return 0, nil, err
	}
	defer resp.Body.Close()
	body, err := io.ReadAll(io.LimitReader(resp.Body, 1<<20))
	res.scan(body)
	if resp.StatusCode >= 400 && bytes.Contains(body, []byte(toolerr.CodeRepeatedFailure)) {
		res.Refused++
	}
	return resp.StatusCode, body, err
}

// truncate shortens s for a reason line.
func truncate(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return strings.ToValidUTF8(s[:n], "") + "…"
}
