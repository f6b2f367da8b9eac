package main

import (
	"context"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// rowsByAgent indexes the simulation's rows by agent name.
// The toolerr agent reads only the observation text; toolerr_json is the
// same agent reading the problem object's members instead. The text must
// lose nothing the agent acts on: both rows are equal but for the name.
func rowsByAgent(t *testing.T, rows []summary) (naive, withToolerr summary) {
	t.Helper()
	require.Len(t, rows, 4)
	require.Equal(t, "naive", rows[0].Agent)
	require.Equal(t, "toolerr", rows[1].Agent)
	require.Equal(t, "toolerr_json", rows[2].Agent)
	require.Equal(t, "naive_toolerr", rows[3].Agent)
	fromJSON := rows[2]
	fromJSON.Agent = "toolerr"
	require.Equal(t, fromJSON, rows[1], "the agent reading the observation does exactly as well as one reading JSON")
	return rows[0], rows[1]
}

// waitGoroutines fails t unless the goroutine count falls back to at most
// want within a few seconds.
func waitGoroutines(t *testing.T, want int) {
	t.Helper()
	deadline := time.Now().Add(3 * time.Second)
	for runtime.NumGoroutine() > want && time.Now().Before(deadline) {
		time.Sleep(10 * time.Millisecond)
	}
	if n := runtime.NumGoroutine(); n > want {
		buf := make([]byte, 1<<16)
		t.Fatalf("%d goroutines left, want at most %d:\n%s", n, want, buf[:runtime.Stack(buf, true)])
	}
}

// TestSimulationComparesAgents runs the agents over 50 seeded tasks: the
// toolerr agent pays no label twice, sees no secret and no HTML, takes the
// backup geocoder when the primary is down, and needs fewer calls per
// completed task than the baseline, which does show duplicates and leaks;
// the baseline in front of the toolerr tools has its repeated failing
// calls refused. The same seed gives the same table.
func TestSimulationComparesAgents(t *testing.T) {
	before := runtime.NumGoroutine()
	cfg := defaultConfig()
	cfg.Tasks = 50
	tasks := newTasks(cfg.Tasks, cfg.Seed)
	seen := map[scenario]bool{}
	for _, tk := range tasks {
		seen[tk.Scenario] = true
	}
	for _, sc := range []scenario{scLabelTimeout, scLeakedKey, scSKUTypo, scOutage, scServiceTypo, scGeocoderDown, scOptedOut} {
		require.True(t, seen[sc], "seed %d: the first %d tasks lack %s, the comparison would mean little", cfg.Seed, cfg.Tasks, sc)
	}

	rows, err := simulate(context.Background(), cfg)
	require.NoError(t, err)
	naive, withToolerr := rowsByAgent(t, rows)

	assert.Zero(t, withToolerr.Duplicates, "toolerr agent: duplicate paid labels")
	assert.Zero(t, withToolerr.SecretBodies, "toolerr agent: secrets or internal hosts reached the agent")
	assert.Zero(t, withToolerr.HTMLBodies, "toolerr agent: HTML reached the agent")
	assert.Zero(t, withToolerr.Failed, "toolerr agent: every task completes or is escalated")
	assert.Less(t, withToolerr.MeanCalls(), naive.MeanCalls(), "toolerr agent: tool calls per completed task")
	assert.Less(t, withToolerr.MeanCallsPerTask(), naive.MeanCallsPerTask(), "toolerr agent: tool calls per task, every call counted")
	assert.GreaterOrEqual(t, withToolerr.Completed, naive.Completed)

	assert.Positive(t, naive.Duplicates, "baseline: a retried label after a timeout is paid twice")
	assert.Positive(t, naive.SecretBodies, "baseline: the leaked key reaches the agent")
	assert.Positive(t, naive.HTMLBodies, "baseline: HTML pages reach the agent")

	assert.Positive(t, withToolerr.Fallbacks, "toolerr agent: the backup geocoder, offered when the primary is down")
	assert.Zero(t, naive.Fallbacks, "baseline: no error names the backup")
	assert.Zero(t, withToolerr.Refused, "toolerr agent: never repeats a failure that cannot pass")
	require.Len(t, rows, 4)
	assert.Positive(t, rows[3].Refused, "baseline in front of the toolerr tools: its repeats of a refusal are refused")
	assert.Zero(t, naive.Refused, "baseline tools: no guard")

	again, err := simulate(context.Background(), cfg)
	require.NoError(t, err)
	assert.Equal(t, rows, again, "the same seed gives the same table")

	var out strings.Builder
	require.NoError(t, printTable(&out, cfg, rows))
	assert.Contains(t, out.String(), "duplicate paid labels")
	assert.Contains(t, out.String(), "fallbacks taken")
	assert.Contains(t, out.String(), "repeated calls refused")
	waitGoroutines(t, before)
}

// TestSimulationIgnoresMachineSpeed runs the simulation with an attempt
// timeout that every carrier answer overruns in real time, as on a machine
// far slower than the timeout, and gets the table of the default timeout:
// an answer takes no simulated time, and only the label answer the carrier
// holds back times out, whatever the timeout and the load.
func TestSimulationIgnoresMachineSpeed(t *testing.T) {
	before := runtime.NumGoroutine()
	cfg := defaultConfig()
	cfg.Tasks = 50
	want, err := simulate(context.Background(), cfg)
	require.NoError(t, err)
	cfg.AttemptTimeout = time.Nanosecond
	got, err := simulate(context.Background(), cfg)
	require.NoError(t, err)
	assert.Equal(t, want, got, "an attempt timeout of 1ns gives the table of 100ms")
	waitGoroutines(t, before)
}

// TestScenarios pins what each agent does with one task of each scripted
// fault: outcome, tool calls, labels paid and what reached the agent. The
// outage row also guards the tool's own error rendering behind
// idempotency.Middleware: a 503 recorded as an empty 200 would be replayed
// as a success without a label.
func TestScenarios(t *testing.T) {
	before := runtime.NumGoroutine()
	type outcome struct {
		completed, escalated bool
		calls                int // tool calls, when completed
		paid, duplicates     int
		secrets, html        int
	}
	cases := []struct {
		sc             scenario
		naive, toolerr outcome
	}{
		{scClean, outcome{completed: true, calls: 4, paid: 1}, outcome{completed: true, calls: 4, paid: 1}},
		{scSKUTypo, outcome{html: 4, secrets: 4}, outcome{completed: true, calls: 5, paid: 1}},
		{scSKUUnknown, outcome{html: 4, secrets: 4}, outcome{escalated: true}},
		{scWeightPrecision, outcome{}, outcome{completed: true, calls: 5, paid: 1}},
		{scWeightOver, outcome{}, outcome{escalated: true}},
		{scRateLimited, outcome{completed: true, calls: 6, paid: 1}, outcome{completed: true, calls: 4, paid: 1}},
		{scReserveFlaky, outcome{completed: true, calls: 6, paid: 1}, outcome{completed: true, calls: 4, paid: 1}},
		{scOutage, outcome{html: 4}, outcome{completed: true, calls: 5, paid: 1}},
		{scLabelTimeout, outcome{completed: true, calls: 5, paid: 2, duplicates: 1}, outcome{completed: true, calls: 4, paid: 1}},
		{scLeakedKey, outcome{secrets: 4}, outcome{escalated: true}},
		{scAlreadyLabelled, outcome{}, outcome{completed: true, calls: 4}},
		{scServiceTypo, outcome{}, outcome{completed: true, calls: 5, paid: 1}},
	}
	cfg := defaultConfig()
	for _, c := range cases {
		t.Run(string(c.sc), func(t *testing.T) {
			tk := newTasks(1, 3)[0]
			tk.Scenario, tk.Address = c.sc, "" // the address on file: no geocoding
			switch c.sc {
			case scSKUTypo:
				tk.SKU = "sku_1007 "
			case scSKUUnknown:
				tk.SKU = "SKU-7777"
			case scWeightPrecision:
				tk.WeightKg = 2.34
			case scWeightOver:
				tk.WeightKg = 85
			}
			tk.Service = "ground"
			if c.sc == scServiceTypo {
				tk.Service = "Express"
			}
			for agent, want := range map[string]outcome{"naive": c.naive, "toolerr": c.toolerr, "toolerr_json": c.toolerr} {
				got, err := runWorld(context.Background(), cfg, agent, []task{tk})
				require.NoError(t, err)
				calls := 0
				if got.Completed == 1 {
					calls = got.CallsDone
				}
				assert.Equal(t, want, outcome{got.Completed == 1, got.Escalated == 1, calls,
					got.PaidLabels, got.Duplicates, got.SecretBodies, got.HTMLBodies}, agent)
			}
		})
	}
	waitGoroutines(t, before)
}

// TestRecoveryScenarios pins the two scenarios of recovery routing, for
// every agent: a primary geocoder that is down while its backup works
// (the toolerr agents take the fallback the error offers; the baseline
// gives up), and a customer who opted out of notifications (a refusal
// that never passes: the toolerr agents escalate at once; the baseline
// repeats it, and in front of the toolerr tools the thrash guard refuses
// its third and fourth identical call without running them).
func TestRecoveryScenarios(t *testing.T) {
	type outcome struct {
		completed, escalated bool
		calls                int // every tool call of the task
		fallbacks, refused   int
		html                 int
	}
	cases := []struct {
		sc   scenario
		want map[string]outcome
	}{
		{scGeocoderDown, map[string]outcome{
			"naive":        {calls: 6, html: 4},
			"toolerr":      {completed: true, calls: 6, fallbacks: 1},
			"toolerr_json": {completed: true, calls: 6, fallbacks: 1},
			// The baseline reads no error, so it repeats the primary: a
			// retryable failure, which the thrash guard leaves alone.
			"naive_toolerr": {calls: 6},
		}},
		{scOptedOut, map[string]outcome{
			"naive":         {calls: 7},
			"toolerr":       {escalated: true, calls: 4},
			"toolerr_json":  {escalated: true, calls: 4},
			"naive_toolerr": {calls: 7, refused: 2},
		}},
	}
	cfg := defaultConfig()
	for _, c := range cases {
		t.Run(string(c.sc), func(t *testing.T) {
			tk := newTasks(1, 3)[0]
			tk.Scenario, tk.Service, tk.Address = c.sc, "ground", ""
			if c.sc == scGeocoderDown {
				tk.Address = "12 Quay Street, Harbour Town"
			}
			for agent, want := range c.want {
				got, err := runWorld(context.Background(), cfg, agent, []task{tk})
				require.NoError(t, err)
				assert.Equal(t, want, outcome{got.Completed == 1, got.Escalated == 1, got.CallsAll,
					got.Fallbacks, got.Refused, got.HTMLBodies}, agent)
			}
		})
	}
}
