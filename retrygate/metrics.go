package retrygate

import (
	"context"
	"log/slog"
	"net"
	"strconv"
	"strings"
	"sync"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"
)

// scopeName is the instrumentation scope of retrygate's meter.
const scopeName = "github.com/toolerr/toolerr/retrygate"

// Attribute keys of retrygate's metrics (OpenTelemetry semantic
// conventions where one exists).
const (
	attrServerAddress = attribute.Key("server.address")
	attrServerPort    = attribute.Key("server.port")
	attrErrorType     = attribute.Key("error.type")
	attrBreakerState  = attribute.Key("toolerr.breaker.state")
	// otherErrorType is error.type for a failure without a code, as the
	// semantic conventions name an unknown error type.
	otherErrorType = "_OTHER"
)

// maxCachedSets bounds the attribute sets a retryMetrics keeps per
// counter; past it, a new combination is built on each Add (and
// allocates) instead of being kept.
const maxCachedSets = 256

// retryMetrics counts the retries of a Policy's calls and the retries its
// budget refused. It is safe for concurrent use.
type retryMetrics struct {
	retries metric.Int64Counter
	refused metric.Int64Counter

	mu          sync.RWMutex
	retryOpts   map[retryAttrs][]metric.AddOption
	refusedOpts map[string][]metric.AddOption
}

// retryAttrs is what a retry is counted by: its host ("" when the call
// has none) and the code of the failure retried.
type retryAttrs struct {
	host, code string
}

// newRetryMetrics creates the counters on mp's meter (nil:
// otel.GetMeterProvider()). A counter the meter cannot create is replaced
// by a no-op one after a warning on slog.Default(): telemetry never stops
// a call.
func newRetryMetrics(mp metric.MeterProvider) *retryMetrics {
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	meter := mp.Meter(scopeName)
	return &retryMetrics{
		retries: counter(meter, "toolerr.retrygate.retries", "{retry}",
			"Retries made, by host and the code of the failure retried."),
		refused: counter(meter, "toolerr.retrygate.budget.refused", "{retry}",
			"Retries the retry budget refused, by host."),
		retryOpts:   make(map[retryAttrs][]metric.AddOption),
		refusedOpts: make(map[string][]metric.AddOption),
	}
}

// counter creates an Int64Counter, or returns a no-op one after a warning.
func counter(meter metric.Meter, name, unit, desc string) metric.Int64Counter {
	c, err := meter.Int64Counter(name, metric.WithUnit(unit), metric.WithDescription(desc))
	if err != nil || c == nil {
		slog.Default().Warn("toolerr: cannot create counter "+name+"; it is not recorded", slog.Any("error", err))
		return noop.Int64Counter{}
	}
	return c
}

// retried counts a retry of a failure with code to host ("" for none).
func (m *retryMetrics) retried(ctx context.Context, host, code string) {
	if code == "" {
		code = otherErrorType
	}
	k := retryAttrs{host: host, code: code}
	m.mu.RLock()
	opts, ok := m.retryOpts[k]
	m.mu.RUnlock()
	if !ok {
		kv := append([]attribute.KeyValue{attrErrorType.String(code)}, hostAttributes(host)...)
		opts = cached(&m.mu, m.retryOpts, k, kv)
	}
	m.retries.Add(ctx, 1, opts...)
}

// budgetRefused counts a retry to host ("" for none) the budget refused.
func (m *retryMetrics) budgetRefused(ctx context.Context, host string) {
	m.mu.RLock()
	opts, ok := m.refusedOpts[host]
	m.mu.RUnlock()
	if !ok {
		opts = cached(&m.mu, m.refusedOpts, host, hostAttributes(host))
	}
	m.refused.Add(ctx, 1, opts...)
}

// hostAttributes returns the attributes of a breaker key (a URL's host,
// with its port when the URL names one) by the semantic conventions:
// server.address the host, server.port the port. "" has none.
func hostAttributes(host string) []attribute.KeyValue {
	if host == "" {
		return nil
	}
	if h, p, err := net.SplitHostPort(host); err == nil {
		if port, err := strconv.Atoi(p); err == nil {
			return []attribute.KeyValue{attrServerAddress.String(h), attrServerPort.Int(port)}
		}
	}
	return []attribute.KeyValue{attrServerAddress.String(strings.Trim(host, "[]"))}
}

// cached returns the Add options of the attribute set kv, keeping them
// under k while the cache holds fewer than maxCachedSets entries.
func cached[K comparable](mu *sync.RWMutex, cache map[K][]metric.AddOption, k K, kv []attribute.KeyValue) []metric.AddOption {
	opts := []metric.AddOption{metric.WithAttributeSet(attribute.NewSet(kv...))}
	mu.Lock()
	defer mu.Unlock()
	if kept, ok := cache[k]; ok {
		return kept
	}
	if len(cache) < maxCachedSets {
		cache[k] = opts
	}
	return opts
}

// callMetrics is what one call to Do counts its retries in: the policy's
// metrics, built on the first retry for a policy that has none (so that a
// call that succeeds at once costs nothing), and the call's host.
type callMetrics struct {
	m    *retryMetrics
	host string
}

// of returns the metrics, building them when the policy had none.
func (c *callMetrics) of() *retryMetrics {
	if c.m == nil {
		c.m = newRetryMetrics(nil)
	}
	return c.m
}

// WithMeterProvider returns a copy of p whose calls count their retries
// (toolerr.retrygate.retries, by error.type, the code of the failure
// retried, and server.address for a Transport's calls) and the retries
// the budget refused (toolerr.retrygate.budget.refused) on mp's meter,
// whose scope is this package's import path. A Transport built with the
// policy also gives it to its default [Breakers] (see
// [BreakerSettings.MeterProvider]). Default, for [DefaultPolicy] and a
// Policy built without it: otel.GetMeterProvider(), the global provider,
// which records nothing until an SDK is installed. A nil mp keeps the
// global one.
//
// Call it once, where the policy is built: it creates the instruments,
// and keeps the attribute sets of the host and code combinations it has
// seen (up to 256 per counter) so that counting them again allocates
// nothing. A Policy built by hand, without DefaultPolicy or this method,
// builds its instruments on the global provider at the first retry of
// each call to Do (a Transport builds them once).
func (p Policy) WithMeterProvider(mp metric.MeterProvider) Policy {
	p.meters = mp
	p.metrics = newRetryMetrics(mp)
	return p
}
