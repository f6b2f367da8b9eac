// Command harbor simulates a shipment assistant twice over the same seeded
// tasks and a fake carrier API with scripted faults (HTML 404 pages, a
// duplicate label 409, 429s with Retry-After, 503s, a label whose answer
// times out after the carrier charged for it, and a 500 that leaks an API
// key and an internal host, a primary geocoder that is down while its
// backup works, and a customer who opted out of notifications).
//
// The baseline agent calls tools that relay the carrier's raw responses and
// repeats any failed call. The toolerr agent calls the same tools built on
// toolerr (middleware, translate, retrygate, idempotency, fallbacks, the
// thrash guard) and acts only on the structured errors it gets back,
// taking a fallback tool when one is offered. A third run puts the
// baseline agent in front of the toolerr tools (naive_toolerr): the thrash
// guard refuses its third identical failing call. The table compares what
// happened: tasks completed and escalated, tool calls, labels paid twice,
// secrets or HTML that reached the agent, fallbacks taken and repeated
// calls refused.
//
// With -model, a real model drives the baseline and the toolerr agent
// instead, through an OpenAI-compatible Chat Completions API
// (OPENAI_BASE_URL, OPENAI_API_KEY), over a few tasks (see modelAgent).
//
// It is a module of its own, so that the root module does not require the
// OpenAI SDK; from the repository's root:
//
//	cd examples/harbor && go run .                 # 200 tasks, seed 1
//	cd examples/harbor && go run . -tasks 1000 -seed 7
//	cd examples/harbor && go run . -model gpt-4.1-mini -tasks 10
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/signal"
	"sync"
	"time"
)

// config sets up one simulation.
type config struct {
	Tasks          int
	Seed           uint64
	Workers        int           // tasks run at once
	AttemptTimeout time.Duration // per carrier attempt, in both tool sets; only a held-back answer reaches it (see simLink)
	NaiveRetries   int           // repeats of a failed call by the baseline
	Verbose        io.Writer     // when set, one line per task that did not complete
	Model          *modelConfig  // when set, a real model drives the baseline and the toolerr agent
}

// defaultConfig returns the settings of a plain `go run .`.
func defaultConfig() config {
	return config{Tasks: 200, Seed: 1, Workers: 8, AttemptTimeout: 100 * time.Millisecond, NaiveRetries: 3}
}

// main runs the command with the process's arguments and environment.
func main() {
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	code := run(ctx, os.Args[1:], os.Getenv, os.Stdout, os.Stderr)
	stop()
	os.Exit(code)
}

// run parses the flags, reads the model's variables from getenv in model
// mode, runs the simulation and prints the table. It returns the exit
// code: 2 for a usage error, 1 when the run failed.
func run(ctx context.Context, args []string, getenv func(string) string, stdout, stderr io.Writer) int {
	cfg := defaultConfig()
	mc := modelConfig{CallTimeout: defaultModelCallTimeout, MaxTurns: defaultModelTurns}
	fs := flag.NewFlagSet("harbor", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.IntVar(&cfg.Tasks, "tasks", cfg.Tasks, fmt.Sprintf("number of shipment tasks (%d with -model)", defaultModelTasks))
	fs.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "seed of the tasks and their faults")
	fs.IntVar(&cfg.Workers, "workers", cfg.Workers, "tasks run at once")
	fs.IntVar(&cfg.NaiveRetries, "retries", cfg.NaiveRetries, "retries of the scripted baseline agent per failed call")
	verbose := fs.Bool("v", false, "print why each task that did not complete stopped")
	fs.StringVar(&mc.Model, "model", "", "drive the baseline and the toolerr agent with this model, through the OpenAI-compatible API\n"+
		"at OPENAI_BASE_URL (default https://api.openai.com/v1) with OPENAI_API_KEY")
	fs.DurationVar(&mc.CallTimeout, "timeout", mc.CallTimeout, "with -model: time limit of one model request")
	fs.IntVar(&mc.MaxTurns, "turns", mc.MaxTurns, "with -model: model requests per task")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	if fs.NArg() > 0 {
		fmt.Fprintf(stderr, "harbor: unexpected argument %q\n", fs.Arg(0))
		return 2
	}
	if *verbose {
		cfg.Verbose = stdout
	}
	if mc.Model != "" {
		mc.APIKey, mc.BaseURL = getenv("OPENAI_API_KEY"), getenv("OPENAI_BASE_URL")
		if mc.APIKey == "" {
			fmt.Fprintln(stderr, "harbor: -model needs the API key in OPENAI_API_KEY (and OPENAI_BASE_URL for an API other than OpenAI's)")
			return 2
		}
		if mc.CallTimeout <= 0 || mc.MaxTurns < 1 {
			fmt.Fprintln(stderr, "harbor: -timeout must be positive and -turns at least 1")
			return 2
		}
		tasksSet := false
		fs.Visit(func(f *flag.Flag) { tasksSet = tasksSet || f.Name == "tasks" })
		if !tasksSet {
			cfg.Tasks = defaultModelTasks
		}
		cfg.Model = &mc
	}
	rows, err := simulate(ctx, cfg)
	if err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	if err := printTable(stdout, cfg, rows); err != nil {
		fmt.Fprintln(stderr, err)
		return 1
	}
	return 0
}

// simulate runs the baseline and the toolerr agent over the same tasks,
// each against its own fresh carrier, and returns their rows: scripted,
// with the two variants (toolerr_json and naive_toolerr), or driven by
// cfg.Model.
func simulate(ctx context.Context, cfg config) ([]summary, error) {
	if cfg.Tasks < 1 || cfg.Workers < 1 {
		return nil, errors.New("harbor: -tasks and -workers must be at least 1")
	}
	tasks := newTasks(cfg.Tasks, cfg.Seed)
	agents := []string{"naive", "toolerr", "toolerr_json", "naive_toolerr"}
	if cfg.Model != nil {
		agents = agents[:2] // a real model costs money: the baseline and toolerr
	}
	var rows []summary
	for _, agent := range agents {
		row, err := runWorld(ctx, cfg, agent, tasks)
		if err != nil {
			return nil, err
		}
		rows = append(rows, row)
	}
	return rows, nil
}

// newLoopbackTransport returns a transport for loopback servers that keeps
// enough idle connections for the workers.
func newLoopbackTransport() *http.Transport {
	t := http.DefaultTransport.(*http.Transport).Clone()
	t.MaxIdleConnsPerHost = 64
	return t
}

// runWorld starts a carrier and the agent's tool set on loopback, runs the
// agent over the tasks, and shuts everything down before it returns. The
// tool set reaches the carrier through simLink and waits on simClock, so
// that the row depends on the tasks alone, not on the machine's speed or
// the order in which the workers run; the tool deadline and the agent's
// client timeout stay real bounds, far above the one real wait of a task
// (a held-back label's attempt timeout).
func runWorld(ctx context.Context, cfg config, agent string, tasks []task) (summary, error) {
	c := newCarrier(tasks)
	carrierSrv := httptest.NewServer(c.handler())
	defer carrierSrv.Close()
	clock := newSimClock()
	loopback := newLoopbackTransport()
	defer loopback.CloseIdleConnections()
	carrierRT := simLink{base: loopback}

	var tools http.Handler
	switch agent {
	case "naive":
		tools = newNaiveHandler(carrierSrv.URL, &http.Client{Transport: carrierRT}, cfg.AttemptTimeout)
	case "toolerr", "toolerr_json", "naive_toolerr":
		h, err := newToolerrHandler(carrierSrv.URL, carrierRT, clock, cfg.AttemptTimeout)
		if err != nil {
			return summary{}, err
		}
		tools = h
	default:
		return summary{}, fmt.Errorf("harbor: unknown agent %q", agent)
	}
	toolSrv := httptest.NewServer(tools)
	defer toolSrv.Close()
	agentRT := newLoopbackTransport()
	defer agentRT.CloseIdleConnections()
	client := &http.Client{Transport: agentRT, Timeout: 10 * time.Second}

	modelRT := http.DefaultTransport.(*http.Transport).Clone() // used in model mode only
	defer modelRT.CloseIdleConnections()
	run, err := newRunner(cfg, agent, client, toolSrv.URL, clock, &http.Client{Transport: modelRT})
	if err != nil {
		return summary{}, err
	}
	results := make([]taskResult, len(tasks))
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(cfg.Workers, len(tasks)) {
		wg.Go(func() {
			for i := range jobs {
				var err error
				if results[i], err = run(ctx, tasks[i]); err != nil {
					cancel(err) // the first error ends the run
				}
			}
		})
	}
	for i := range tasks {
		jobs <- i
	}
	close(jobs)
	wg.Wait()
	if err := context.Cause(ctx); err != nil {
		return summary{}, err
	}

	if cfg.Verbose != nil {
		for i, r := range results {
			if !r.Completed {
				fmt.Fprintf(cfg.Verbose, "%-7s %s %-16s %s\n", agent, tasks[i].Order, tasks[i].Scenario, r.Reason)
			}
		}
	}
	paid, dups := c.paidLabels()
	return summarize(agent, results, paid, dups, clock.Waited()), nil
}

// runner works through one task; an error ends the whole run.
type runner func(ctx context.Context, t task) (taskResult, error)

// newRunner returns the agent named agent, talking to the tool server at
// base through client: scripted, or driven by cfg.Model, which it asks
// through modelClient.
func newRunner(cfg config, agent string, client *http.Client, base string, clock *simClock, modelClient *http.Client) (runner, error) {
	if cfg.Model != nil {
		tools, err := toolDefinitions()
		if err != nil {
			return nil, err
		}
		a := &modelAgent{chat: newChatService(cfg.Model, modelClient), mc: cfg.Model, tools: tools,
			client: client, base: base, toolerr: agent == "toolerr", seed: cfg.Seed}
		return a.run, nil
	}
	if agent == "naive" || agent == "naive_toolerr" {
		a := &naiveAgent{client: client, base: base, retries: cfg.NaiveRetries}
		return func(ctx context.Context, t task) (taskResult, error) { return a.run(ctx, t), nil }, nil
	}
	a := &toolerrAgent{client: client, base: base, clock: clock, seed: cfg.Seed, readJSON: agent == "toolerr_json"}
	return func(ctx context.Context, t task) (taskResult, error) { return a.run(ctx, t), nil }, nil
}
