package retrygate

import (
	"context"
	"log/slog"
	"runtime"
	"weak"

	"github.com/sony/gobreaker/v2"
	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// breakerStates names a breaker's states as the metrics report them, in
// the order of their gauge values: 0 closed, 1 half_open, 2 open.
var breakerStates = [...]gobreaker.State{gobreaker.StateClosed, gobreaker.StateHalfOpen, gobreaker.StateOpen}

// breakerStateName is the toolerr.breaker.state value of s.
func breakerStateName(s gobreaker.State) string {
	switch s {
	case gobreaker.StateHalfOpen:
		return "half_open"
	case gobreaker.StateOpen:
		return "open"
	default:
		return "closed"
	}
}

// breakerStateValue is the toolerr.retrygate.breaker.state gauge value of
// s: 0 closed, 1 half_open, 2 open.
func breakerStateValue(s gobreaker.State) int64 {
	switch s {
	case gobreaker.StateHalfOpen:
		return 1
	case gobreaker.StateOpen:
		return 2
	default:
		return 0
	}
}

// hostAttrs are the attribute sets of one host's breaker, built when the
// breaker is: its gauge's and one per state it may move to.
type hostAttrs struct {
	host        []metric.ObserveOption
	transitions [len(breakerStates)][]metric.AddOption
}

// newHostAttrs builds host's attribute sets.
func newHostAttrs(host string) hostAttrs {
	addr := hostAttributes(host)
	a := hostAttrs{host: []metric.ObserveOption{metric.WithAttributeSet(attribute.NewSet(addr...))}}
	for i, s := range breakerStates {
		kv := append(append([]attribute.KeyValue(nil), addr...), attrBreakerState.String(breakerStateName(s)))
		a.transitions[i] = []metric.AddOption{metric.WithAttributeSet(attribute.NewSet(kv...))}
	}
	return a
}

// transitionOpts returns the Add options of a move to s.
func (a *hostAttrs) transitionOpts(s gobreaker.State) []metric.AddOption {
	return a.transitions[breakerStateValue(s)]
}

// instrument creates the breakers' metrics on s.MeterProvider (nil:
// otel.GetMeterProvider()): the transitions counter, and the state gauge
// observed at each collection for every host b keeps. The gauge's
// callback holds b weakly and is unregistered once b is garbage, so a
// provider never keeps a Breakers alive nor grows with the Breakers made.
// An instrument the meter cannot create is not recorded, after a warning
// on slog.Default(): telemetry never stops a call.
func (b *Breakers) instrument(mp metric.MeterProvider) {
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	meter := mp.Meter(scopeName)
	b.transitions = counter(meter, "toolerr.retrygate.breaker.transitions", "{transition}",
		"Circuit breaker state changes, by host and the new state.")
	// The unit is {state}, not 1: the Prometheus exporter names a gauge of
	// unit 1 with a _ratio suffix, and a state is no ratio.
	gauge, err := meter.Int64ObservableGauge("toolerr.retrygate.breaker.state", metric.WithUnit("{state}"),
		metric.WithDescription("Circuit breaker state per host: 0 closed, 1 half_open, 2 open."))
	if err != nil || gauge == nil {
		slog.Default().Warn("toolerr: cannot create gauge toolerr.retrygate.breaker.state; it is not recorded", slog.Any("error", err))
		return
	}
	wb := weak.Make(b)
	reg, err := meter.RegisterCallback(func(_ context.Context, o metric.Observer) error {
		if b := wb.Value(); b != nil {
			b.observe(o, gauge)
		}
		return nil
	}, gauge)
	if err != nil || reg == nil {
		slog.Default().Warn("toolerr: cannot observe gauge toolerr.retrygate.breaker.state; it is not recorded", slog.Any("error", err))
		return
	}
	runtime.AddCleanup(b, func(r metric.Registration) { _ = r.Unregister() }, reg)
}

// observe reports the state of every breaker b keeps.
func (b *Breakers) observe(o metric.Observer, gauge metric.Int64ObservableGauge) {
	b.mu.RLock()
	defer b.mu.RUnlock()
	for _, hb := range b.hosts {
		o.ObserveInt64(gauge, breakerStateValue(hb.cb.State()), hb.attrs.host...)
	}
}
