package retrygate

import (
	"bytes"
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/url"
	"regexp"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"
	sdkmetric "go.opentelemetry.io/otel/sdk/metric"
	"go.opentelemetry.io/otel/sdk/metric/metricdata"

	"github.com/toolerr/toolerr"
)

// meterRig is a real OpenTelemetry SDK provider read by hand.
type meterRig struct {
	reader *sdkmetric.ManualReader
	mp     *sdkmetric.MeterProvider
}

func newMeterRig(t *testing.T) *meterRig {
	t.Helper()
	r := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(r))
	t.Cleanup(func() { _ = mp.Shutdown(context.Background()) })
	return &meterRig{reader: r, mp: mp}
}

// series collects and returns every series of the instrument name, keyed
// by its attributes ("k=v,k=v", sorted), after checking the scope, the
// unit and the kind the contract gives it, and that every attribute is
// one the contract allows, with a bounded value.
func (rig *meterRig) series(t *testing.T, name string) map[string]int64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, rig.reader.Collect(context.Background(), &rm))
	out := map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != name {
				continue
			}
			assert.Equal(t, "github.com/toolerr/toolerr/retrygate", sm.Scope.Name)
			var points []metricdata.DataPoint[int64]
			switch d := m.Data.(type) {
			case metricdata.Sum[int64]:
				assert.True(t, d.IsMonotonic, "%s is a counter", name)
				assert.NotEqual(t, "toolerr.retrygate.breaker.state", name)
				points = d.DataPoints
			case metricdata.Gauge[int64]:
				assert.Equal(t, "toolerr.retrygate.breaker.state", name, "only the state is a gauge")
				assert.Equal(t, "{state}", m.Unit, "not 1, which Prometheus exports as _ratio")
				points = d.DataPoints
			default:
				t.Fatalf("%s: unexpected data %T", name, m.Data)
			}
			if _, ok := m.Data.(metricdata.Sum[int64]); ok {
				assert.Equal(t, map[string]string{
					"toolerr.retrygate.retries":             "{retry}",
					"toolerr.retrygate.budget.refused":      "{retry}",
					"toolerr.retrygate.breaker.transitions": "{transition}",
				}[name], m.Unit)
			}
			for _, p := range points {
				boundedAttributes(t, p.Attributes)
				out[p.Attributes.Encoded(attribute.DefaultEncoder())] = p.Value
			}
		}
	}
	return out
}

var (
	codeValue = regexp.MustCompile(`^[A-Z][A-Z0-9_]*$`)
	hostValue = regexp.MustCompile(`^(127\.0\.0\.1|api\.example\.com)$`)
)

// boundedAttributes fails unless every attribute is one of the contract's,
// with a value from a bounded set: a host, a code, a state.
func boundedAttributes(t *testing.T, s attribute.Set) {
	t.Helper()
	for _, kv := range s.ToSlice() {
		v := kv.Value.String()
		switch kv.Key {
		case "server.port":
			assert.Positive(t, kv.Value.AsInt64(), "server.port is the port number")
		case "server.address":
			assert.Regexp(t, hostValue, v)
		case "error.type":
			assert.Regexp(t, codeValue, v)
		case "toolerr.breaker.state":
			assert.Contains(t, []string{"closed", "half_open", "open"}, v)
		default:
			t.Errorf("unexpected attribute %s=%q", kv.Key, v)
		}
	}
}

// hostOf is the server.address of srv's requests, followed by their
// server.port as the series keys list them.
func hostOf(t *testing.T, srv *scripted) string {
	t.Helper()
	u, err := url.Parse(srv.URL)
	require.NoError(t, err)
	return u.Hostname() + ",server.port=" + u.Port()
}

func TestMetricsTransportCountsRetryByHostAndCode(t *testing.T) {
	rig := newMeterRig(t)
	srv := newScripted(t, err503, ok200)
	clk := &sleepClock{}
	p := DefaultPolicy().WithMeterProvider(rig.mp)
	p.Clock = clk
	c := &http.Client{Transport: Transport(nil, WithPolicy(p))}

	code, err := status0(t, c, srv.URL)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, code)
	require.Len(t, srv.Hits(), 2)

	host := hostOf(t, srv)
	assert.Equal(t, map[string]int64{"error.type=UPSTREAM_UNAVAILABLE,server.address=" + host: 1},
		rig.series(t, "toolerr.retrygate.retries"))
	assert.Empty(t, rig.series(t, "toolerr.retrygate.budget.refused"))
	// The Transport's own breakers report on the policy's provider.
	assert.Equal(t, map[string]int64{"server.address=" + host: 0}, rig.series(t, "toolerr.retrygate.breaker.state"))
	assert.Empty(t, rig.series(t, "toolerr.retrygate.breaker.transitions"))

	// A second call retried the same way counts in the same series.
	srv.setSteps(err503, ok200)
	_, err = status0(t, c, srv.URL)
	require.NoError(t, err)
	assert.Equal(t, map[string]int64{"error.type=UPSTREAM_UNAVAILABLE,server.address=" + host: 2},
		rig.series(t, "toolerr.retrygate.retries"))
}

func TestMetricsDoCountsRetryWithoutHost(t *testing.T) {
	rig := newMeterRig(t)
	p := DefaultPolicy().WithMeterProvider(rig.mp)
	p.Clock = &sleepClock{}
	p.MaxAttempts = 4
	failures := []error{coreErr(toolerr.CodeRateLimited), coreErr(toolerr.CodeUpstreamTimeout), coreErr(toolerr.CodeRateLimited)}
	calls := 0
	err := Do(context.Background(), p, func(context.Context) error {
		calls++
		if calls <= len(failures) {
			return failures[calls-1]
		}
		return nil
	})
	require.NoError(t, err)
	require.Equal(t, 4, calls)
	assert.Equal(t, map[string]int64{
		"error.type=" + toolerr.CodeRateLimited:     2,
		"error.type=" + toolerr.CodeUpstreamTimeout: 1,
	}, rig.series(t, "toolerr.retrygate.retries"))
}

func TestMetricsBudgetRefusedRetry(t *testing.T) {
	rig := newMeterRig(t)
	srv := newScripted(t, err503)
	p := DefaultPolicy().WithMeterProvider(rig.mp)
	p.Clock = &sleepClock{}
	// One token: the first retry spends it, the second is refused.
	p.Budget = NewBudget(BudgetSettings{MaxTokens: 1, RetryCost: 1})
	c := &http.Client{Transport: Transport(nil, WithPolicy(p), WithoutBreaker())}

	code, err := status0(t, c, srv.URL)
	require.NoError(t, err)
	require.Equal(t, http.StatusServiceUnavailable, code)
	require.Len(t, srv.Hits(), 2, "the first attempt and one retry")

	host := hostOf(t, srv)
	assert.Equal(t, map[string]int64{"server.address=" + host: 1}, rig.series(t, "toolerr.retrygate.budget.refused"))
	assert.Equal(t, map[string]int64{"error.type=UPSTREAM_UNAVAILABLE,server.address=" + host: 1},
		rig.series(t, "toolerr.retrygate.retries"))
	assert.Empty(t, rig.series(t, "toolerr.retrygate.breaker.state"), "WithoutBreaker: no breakers to report")

	// Do without a host: the refusal has no attribute.
	calls := 0
	err = Do(context.Background(), p, func(context.Context) error {
		calls++
		return coreErr(toolerr.CodeRateLimited)
	})
	require.Error(t, err)
	assert.Equal(t, 1, calls)
	assert.Equal(t, map[string]int64{"server.address=" + host: 1, "": 1}, rig.series(t, "toolerr.retrygate.budget.refused"))
}

func TestMetricsBreakerTransitionsAndState(t *testing.T) {
	rig := newMeterRig(t)
	const openFor = 100 * time.Millisecond
	b := NewBreakers(BreakerSettings{ConsecutiveFailures: 2, OpenFor: openFor, MeterProvider: rig.mp})
	c := oneShot(b)
	down := newScripted(t, err503)
	host := hostOf(t, down)
	state := "server.address=" + host

	for range 2 {
		_, err := status0(t, c, down.URL)
		require.NoError(t, err)
	}
	assert.Equal(t, map[string]int64{state: 2}, rig.series(t, "toolerr.retrygate.breaker.state"), "open")
	assert.Equal(t, map[string]int64{state + ",toolerr.breaker.state=open": 1},
		rig.series(t, "toolerr.retrygate.breaker.transitions"))

	// Past OpenFor the breaker is half-open: the collection sees it.
	time.Sleep(openFor + 50*time.Millisecond)
	assert.Equal(t, map[string]int64{state: 1}, rig.series(t, "toolerr.retrygate.breaker.state"), "half-open")

	// The trial call succeeds: closed.
	down.setSteps(ok200)
	code, err := status0(t, c, down.URL)
	require.NoError(t, err)
	require.Equal(t, http.StatusOK, code)
	assert.Equal(t, map[string]int64{state: 0}, rig.series(t, "toolerr.retrygate.breaker.state"), "closed")
	assert.Equal(t, map[string]int64{
		state + ",toolerr.breaker.state=open":      1,
		state + ",toolerr.breaker.state=half_open": 1,
		state + ",toolerr.breaker.state=closed":    1,
	}, rig.series(t, "toolerr.retrygate.breaker.transitions"))

	// Another host gets a series of its own.
	up := newScripted(t, ok200)
	_, err = status0(t, c, up.URL)
	require.NoError(t, err)
	assert.Equal(t, map[string]int64{state: 0, "server.address=" + hostOf(t, up): 0},
		rig.series(t, "toolerr.retrygate.breaker.state"))
}

func TestMetricsBreakerGaugeLetsUnreachableBreakersGo(t *testing.T) {
	rig := newMeterRig(t)
	func() {
		b := NewBreakers(BreakerSettings{MeterProvider: rig.mp})
		b.get("api.example.com")
		assert.Equal(t, map[string]int64{"server.address=api.example.com": 0},
			rig.series(t, "toolerr.retrygate.breaker.state"))
	}()
	// The provider holds the gauge's callback, which must not keep the
	// Breakers alive.
	for range 20 {
		runtime.GC()
		if len(rig.series(t, "toolerr.retrygate.breaker.state")) == 0 {
			return
		}
	}
	t.Fatal("an unreachable Breakers is still reported")
}

func TestMetricsGlobalProviderByDefault(t *testing.T) {
	// No provider anywhere: the global one (a no-op here) takes the
	// counts, and the calls behave as with metrics.
	srv := newScripted(t, err503, ok200)
	c := client(&sleepClock{})
	code, err := status0(t, c, srv.URL)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, code)
	assert.Len(t, srv.Hits(), 2)

	// A Policy built by hand has no instruments: Do builds them on its
	// first retry.
	p := Policy{MaxAttempts: 2, Clock: &sleepClock{}, Budget: NewBudget(BudgetSettings{})}
	calls := 0
	err = Do(context.Background(), p, func(context.Context) error {
		calls++
		if calls == 1 {
			return coreErr(toolerr.CodeRateLimited)
		}
		return nil
	})
	require.NoError(t, err)
	assert.Equal(t, 2, calls)
}

// failingProvider is a provider whose meters cannot create an instrument
// nor register a callback.
type failingProvider struct{ noop.MeterProvider }

func (failingProvider) Meter(string, ...metric.MeterOption) metric.Meter { return failingMeter{} }

type failingMeter struct{ noop.Meter }

var errNoInstrument = errors.New("instrument refused")

func (failingMeter) Int64Counter(string, ...metric.Int64CounterOption) (metric.Int64Counter, error) {
	return nil, errNoInstrument
}

func (failingMeter) Int64ObservableGauge(string, ...metric.Int64ObservableGaugeOption) (metric.Int64ObservableGauge, error) {
	return nil, errNoInstrument
}

func (failingMeter) RegisterCallback(metric.Callback, ...metric.Observable) (metric.Registration, error) {
	return nil, errNoInstrument
}

func TestMetricsFailingProviderStillServes(t *testing.T) {
	var logs bytes.Buffer
	prev := slog.Default()
	slog.SetDefault(slog.New(slog.NewTextHandler(&logs, nil)))
	t.Cleanup(func() { slog.SetDefault(prev) })

	p := DefaultPolicy().WithMeterProvider(failingProvider{})
	p.Clock = &sleepClock{}
	p.Budget = NewBudget(BudgetSettings{MaxTokens: 1, RetryCost: 1})
	c := &http.Client{Transport: Transport(nil, WithPolicy(p))}
	srv := newScripted(t, err503, ok200)
	code, err := status0(t, c, srv.URL)
	require.NoError(t, err)
	assert.Equal(t, http.StatusOK, code, "retried once, then served")
	assert.Len(t, srv.Hits(), 2)

	// The budget is spent: the next retry is refused, and counted nowhere.
	srv.setSteps(err503)
	code, err = status0(t, c, srv.URL)
	require.NoError(t, err)
	assert.Equal(t, http.StatusServiceUnavailable, code)

	// The breaker still opens.
	b := NewBreakers(BreakerSettings{ConsecutiveFailures: 1, MeterProvider: failingProvider{}})
	one := oneShot(b)
	_, err = status0(t, one, srv.URL)
	require.NoError(t, err)
	_, err = status0(t, one, srv.URL)
	te, ok := toolerr.From(err)
	require.True(t, ok, "%v", err)
	assert.Equal(t, toolerr.CodeCircuitOpen, te.Code)

	for _, name := range []string{"toolerr.retrygate.retries", "toolerr.retrygate.budget.refused",
		"toolerr.retrygate.breaker.transitions", "toolerr.retrygate.breaker.state"} {
		assert.Contains(t, logs.String(), name, "a warning names each instrument not created")
	}
}

func TestMetricsSeenAttributesAllocateNothing(t *testing.T) {
	rig := newMeterRig(t)
	m := newRetryMetrics(rig.mp)
	ctx := context.Background()
	m.retried(ctx, "api.example.com", toolerr.CodeRateLimited)
	m.retried(ctx, "", toolerr.CodeRateLimited)
	m.budgetRefused(ctx, "api.example.com")
	allocs := testing.AllocsPerRun(100, func() {
		m.retried(ctx, "api.example.com", toolerr.CodeRateLimited)
		m.retried(ctx, "", toolerr.CodeRateLimited)
		m.budgetRefused(ctx, "api.example.com")
	})
	assert.Zero(t, allocs)
	// The first call, AllocsPerRun's warm-up run and its 100 runs.
	assert.Equal(t, map[string]int64{
		"error.type=RATE_LIMITED,server.address=api.example.com": 102,
		"error.type=RATE_LIMITED":                                102,
	}, rig.series(t, "toolerr.retrygate.retries"))

	// Past the bound, new hosts are still counted, just not kept.
	for i := range maxCachedSets + 10 {
		m.budgetRefused(ctx, "h"+strconv.Itoa(i)+".example.com")
	}
	assert.Len(t, m.refusedOpts, maxCachedSets)
}
