package main

import (
	"context"
	"io"
	"net/http"
	"net/http/httptrace"
	"net/textproto"
	"sync"
	"sync/atomic"
	"time"
)

// The simulation's time. The table must be a function of the seed alone,
// however fast the machine runs the tasks, so no outcome may depend on how
// much real time passes:
//   - a wait (Retry-After, a backoff) takes simulated time only: simClock
//     adds it up and returns at once;
//   - a carrier answer takes no simulated time, however long the machine
//     takes to produce it, so no deadline passes while it is on its way;
//     only an answer the carrier holds back (the label_timeout scenario)
//     is late, and then certainly so: simLink ends that attempt when the
//     caller's real deadline fires, as a timeout does.

// simClock is the retry clock of the simulation (a retrygate.Clock): a
// wait returns at once and is only added up, so Retry-After: 2 costs
// nothing; the total is the table's "simulated wait". Its time stands still
// at the instant the clock was made: the real time the machine spends
// between two waits does not count, so whether a wait fits before a tool
// call's deadline (retrygate never waits into it) depends on the wait
// alone. The scenarios' waits, at most 2 s, all fit the tool deadline.
type simClock struct {
	start time.Time

	mu     sync.Mutex
	waited time.Duration
}

// newSimClock returns a clock standing at the current instant.
func newSimClock() *simClock { return &simClock{start: time.Now()} }

// Now returns the instant the clock was made.
func (c *simClock) Now() time.Time { return c.start }

// Sleep records a wait of d without waiting, unless ctx is already done.
func (c *simClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	c.waited += max(d, 0)
	c.mu.Unlock()
	return nil
}

// Waited returns the total simulated wait.
func (c *simClock) Waited() time.Duration {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.waited
}

// simLink is the network between a tool set and the carrier, an
// http.RoundTripper over base. It sends each attempt with the caller's
// context values but not its deadline or cancellation, so that an answer
// the machine is slow to produce still arrives, as it would in no time.
//
// A carrier that holds its answer back says so first with a 102
// Processing (see carrier.createLabel). From then on the answer is late:
// the link waits for the caller's context to end (its attempt timeout, a
// real timer), drops the connection, which ends the carrier's handler, and
// returns the context's cause, as http.Transport does when a deadline
// passes while it awaits the response headers. The caller's deadline thus
// ends exactly the attempts the scenario holds back, whatever the load.
type simLink struct {
	base http.RoundTripper
}

// RoundTrip sends req; see simLink.
func (l simLink) RoundTrip(req *http.Request) (*http.Response, error) {
	caller := req.Context()
	ctx, cancel := context.WithCancel(context.WithoutCancel(caller))
	var late atomic.Bool
	ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{
		Got1xxResponse: func(code int, _ textproto.MIMEHeader) error {
			if code != http.StatusProcessing {
				return nil
			}
			late.Store(true)
			<-caller.Done()
			return context.Cause(caller) // aborts the attempt and closes its connection
		},
	})
	resp, err := l.base.RoundTrip(req.Clone(ctx))
	if late.Load() {
		cancel()
		if resp != nil {
			resp.Body.Close()
		}
		return nil, context.Cause(caller)
	}
	if err != nil {
		cancel()
		return nil, err
	}
	resp.Body = &cancelOnClose{ReadCloser: resp.Body, cancel: cancel}
	return resp, nil
}

// cancelOnClose ends an attempt's context when its response body is
// closed.
type cancelOnClose struct {
	io.ReadCloser
	cancel context.CancelFunc
}

// Close closes the body, then ends the context.
func (b *cancelOnClose) Close() error {
	err := b.ReadCloser.Close()
	b.cancel()
	return err
}
