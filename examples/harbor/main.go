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
//	go run ./examples/harbor                 # 200 tasks, seed 1
//	go run ./examples/harbor -tasks 1000 -seed 7
package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"os"
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
}

// defaultConfig returns the settings of a plain `go run`.
func defaultConfig() config {
	return config{Tasks: 200, Seed: 1, Workers: 8, AttemptTimeout: 100 * time.Millisecond, NaiveRetries: 3}
}

// main parses the flags, runs the simulation and prints the table.
func main() {
	cfg := defaultConfig()
	flag.IntVar(&cfg.Tasks, "tasks", cfg.Tasks, "number of shipment tasks")
	flag.Uint64Var(&cfg.Seed, "seed", cfg.Seed, "seed of the tasks and their faults")
	flag.IntVar(&cfg.Workers, "workers", cfg.Workers, "tasks run at once")
	flag.IntVar(&cfg.NaiveRetries, "retries", cfg.NaiveRetries, "retries of the baseline agent per failed call")
	verbose := flag.Bool("v", false, "print why each task that did not complete stopped")
	flag.Parse()
	if *verbose {
		cfg.Verbose = os.Stdout
	}
	rows, err := simulate(context.Background(), cfg)
	if err != nil {
		log.Fatal(err)
	}
	if err := printTable(os.Stdout, cfg, rows); err != nil {
		log.Fatal(err)
	}
}

// simulate runs the baseline and the toolerr agent over the same tasks,
// each against its own fresh carrier, and returns their rows.
func simulate(ctx context.Context, cfg config) ([]summary, error) {
	if cfg.Tasks < 1 || cfg.Workers < 1 {
		return nil, errors.New("harbor: -tasks and -workers must be at least 1")
	}
	tasks := newTasks(cfg.Tasks, cfg.Seed)
	var rows []summary
	for _, agent := range []string{"naive", "toolerr", "toolerr_json", "naive_toolerr"} {
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

	run := func(ctx context.Context, t task) taskResult {
		if agent == "naive" || agent == "naive_toolerr" {
			return (&naiveAgent{client: client, base: toolSrv.URL, retries: cfg.NaiveRetries}).run(ctx, t)
		}
		return (&toolerrAgent{client: client, base: toolSrv.URL, clock: clock, seed: cfg.Seed, readJSON: agent == "toolerr_json"}).run(ctx, t)
	}
	results := make([]taskResult, len(tasks))
	jobs := make(chan int)
	var wg sync.WaitGroup
	for range min(cfg.Workers, len(tasks)) {
		wg.Go(func() {
			for i := range jobs {
				results[i] = run(ctx, tasks[i])
			}
		})
	}
	for i := range tasks {
		jobs <- i
	}
	close(jobs)
	wg.Wait()

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
