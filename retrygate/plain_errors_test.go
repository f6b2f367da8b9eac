package retrygate

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// refusedAddr returns a loopback address nothing listens on.
func refusedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	return addr
}

// silentAddr returns a loopback address that accepts connections and
// never answers.
func silentAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	t.Cleanup(func() { _ = ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			t.Cleanup(func() { _ = c.Close() })
		}
	}()
	return ln.Addr().String()
}

// TestDoClassifiesPlainGoErrors: op returns the raw errors of real
// network calls. Nothing sent (a refused dial) is retried for any op; a
// read that timed out may have run, so it is retried only for an
// idempotent op; an error no rule knows ends the call.
func TestDoClassifiesPlainGoErrors(t *testing.T) {
	refused, silent := refusedAddr(t), silentAddr(t)
	dial := func(ctx context.Context) error {
		c, err := (&net.Dialer{}).DialContext(ctx, "tcp", refused)
		if err == nil {
			_ = c.Close()
		}
		return err
	}
	read := func(ctx context.Context) error {
		c, err := (&net.Dialer{}).DialContext(ctx, "tcp", silent)
		if err != nil {
			return err
		}
		defer c.Close()
		_ = c.SetReadDeadline(time.Now().Add(20 * time.Millisecond))
		_, err = c.Read(make([]byte, 1))
		return fmt.Errorf("read ledger: %w", err)
	}
	tests := []struct {
		name       string
		op         func(context.Context) error
		idempotent bool
		attempts   int
		reason     string
	}{
		{"refused dial, not idempotent", dial, false, 3, reasonAttempts},
		{"refused dial, idempotent", dial, true, 3, reasonAttempts},
		{"read timeout, not idempotent", read, false, 1, reasonNotRetryable},
		{"read timeout, idempotent", read, true, 3, reasonAttempts},
		{"unknown error", func(context.Context) error { return errors.New("ledger said no") }, true, 1, reasonNotRetryable},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var reason string
			p := corePolicy(newRecClock(), &reason)
			p.Idempotent = tt.idempotent
			n := 0
			err := Do(context.Background(), p, func(ctx context.Context) error { n++; return tt.op(ctx) })
			require.Error(t, err)
			assert.Equal(t, tt.attempts, n)
			assert.Equal(t, tt.reason, reason)
			_, isToolerr := toolerr.From(err)
			assert.False(t, isToolerr, "Do returns op's own error, not the classification")
		})
	}
}

// ledgerBusy is a typed error of a client library the built-in mappers do
// not know.
type ledgerBusy struct{ wait time.Duration }

func (e *ledgerBusy) Error() string { return "ledger busy" }

// ledgerMapper maps *ledgerBusy to an unavailable downstream with its delay.
var ledgerMapper = classify.MapperFunc(func(err error) (classify.Outcome, bool) {
	lb, ok := errors.AsType[*ledgerBusy](err)
	if !ok {
		return classify.Outcome{}, false
	}
	return classify.Outcome{Vendor: "ledger", Status: http.StatusServiceUnavailable, Delay: lb.wait}, true
})

// TestPolicyWithErrorMappers: a mapper added to the policy makes Do retry
// the typed error it knows, waiting the delay it carries; without it the
// error ends the call.
func TestPolicyWithErrorMappers(t *testing.T) {
	busy := fmt.Errorf("post entry: %w", &ledgerBusy{wait: 750 * time.Millisecond})
	var reason string
	clk := newRecClock()
	p := corePolicy(clk, &reason).WithErrorMappers(ledgerMapper)
	op, calls := coreFailing(busy)
	err := Do(context.Background(), p, op)
	require.ErrorIs(t, err, busy)
	assert.Equal(t, 3, *calls)
	assert.Equal(t, []time.Duration{750 * time.Millisecond, 750 * time.Millisecond}, clk.Sleeps(), "the mapped delay is the server's")

	plain := corePolicy(newRecClock(), &reason)
	op, calls = coreFailing(busy)
	require.Error(t, Do(context.Background(), plain, op))
	assert.Equal(t, 1, *calls)
	assert.Equal(t, reasonNotRetryable, reason)
}

// busyTransport is a base RoundTripper that fails with a typed error for
// its first calls, as an SDK's own transport does, then passes through.
type busyTransport struct {
	base  http.RoundTripper
	fails int32
	calls atomic.Int32
}

func (b *busyTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	if b.calls.Add(1) <= b.fails {
		return nil, &ledgerBusy{}
	}
	return b.base.RoundTrip(r)
}

// TestTransportWithErrorMappers: the Transport retries a base
// RoundTripper's typed error its mappers know; without them the error is
// INTERNAL_ERROR and is not retried.
func TestTransportWithErrorMappers(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) { _, _ = io.WriteString(w, "ok") }))
	defer srv.Close()
	p := DefaultPolicy()
	p.Clock = &sleepClock{}

	base := &busyTransport{base: srv.Client().Transport, fails: 2}
	client := &http.Client{Transport: Transport(base, WithPolicy(p), WithErrorMappers(ledgerMapper), WithoutBreaker())}
	resp, err := client.Get(srv.URL)
	require.NoError(t, err)
	_ = resp.Body.Close()
	assert.Equal(t, int32(3), base.calls.Load())

	base = &busyTransport{base: srv.Client().Transport, fails: 2}
	client = &http.Client{Transport: Transport(base, WithPolicy(p), WithoutBreaker())}
	_, err = client.Get(srv.URL)
	require.Error(t, err)
	te, ok := toolerr.From(err)
	require.True(t, ok)
	assert.Equal(t, toolerr.CodeInternal, te.Code)
	assert.Equal(t, int32(1), base.calls.Load())
}
