package idempotency

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
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

// Secrets of the requests the metric tests send: none may appear in an
// attribute.
const (
	secretAuth = "Bearer tenant-7-credential"
	secretKey  = "op-4411-create-label"
)

// sdkReader returns a real SDK provider and its reader.
func sdkReader(t *testing.T) (*sdkmetric.MeterProvider, *sdkmetric.ManualReader) {
	t.Helper()
	r := sdkmetric.NewManualReader()
	mp := sdkmetric.NewMeterProvider(sdkmetric.WithReader(r))
	t.Cleanup(func() { _ = mp.Shutdown(context.Background()) })
	return mp, r
}

// allowedValues are the attributes of the package's counters, each with
// every value it may take.
var allowedValues = map[attribute.Key][]string{
	"toolerr.idempotency.conflict":        {"in_flight", "payload_mismatch", "duplicate_action"},
	"toolerr.idempotency.store.operation": {"claim", "complete", "release", "get"},
	"toolerr.idempotency.fail_open":       {"true", "false"},
}

// counted collects the counter name's series, keyed by their attributes
// ("k=v,k=v", sorted), after checking its scope, unit and kind, and that
// every attribute is one of the contract's with one of its values.
func counted(t *testing.T, r *sdkmetric.ManualReader, name string) map[string]int64 {
	t.Helper()
	var rm metricdata.ResourceMetrics
	require.NoError(t, r.Collect(context.Background(), &rm))
	units := map[string]string{
		"toolerr.idempotency.replays":           "{response}",
		"toolerr.idempotency.conflicts":         "{request}",
		"toolerr.idempotency.store.unavailable": "{error}",
	}
	out := map[string]int64{}
	for _, sm := range rm.ScopeMetrics {
		for _, m := range sm.Metrics {
			if m.Name != name {
				continue
			}
			assert.Equal(t, "github.com/toolerr/toolerr/idempotency", sm.Scope.Name)
			assert.Equal(t, units[name], m.Unit)
			sum, ok := m.Data.(metricdata.Sum[int64])
			require.True(t, ok, "%s is an Int64Counter, got %T", name, m.Data)
			assert.True(t, sum.IsMonotonic)
			for _, p := range sum.DataPoints {
				for _, kv := range p.Attributes.ToSlice() {
					v := kv.Value.String()
					assert.Contains(t, allowedValues[kv.Key], v, "attribute %s", kv.Key)
					for _, secret := range []string{secretAuth, secretKey, "Oslo"} {
						assert.NotContains(t, v, secret)
					}
				}
				out[p.Attributes.Encoded(attribute.DefaultEncoder())] = p.Value
			}
		}
	}
	return out
}

// post sends a POST with the metric tests' credential through h.
func post(h http.Handler, key, body string) *httptest.ResponseRecorder {
	return call(h, key, secretAuth, body)
}

func TestMetricsMiddlewareReplayAndConflicts(t *testing.T) {
	mp, r := sdkReader(t)
	opts := []Option{WithMeterProvider(mp)}

	h := newMW(NewMemoryStore(), opts...)(&labelTool{})
	require.Equal(t, 201, post(h, secretKey, `{"to":"Oslo"}`).Code)
	assert.Empty(t, counted(t, r, "toolerr.idempotency.replays"), "a first run is no replay")
	require.Equal(t, 201, post(h, secretKey, `{"to":"Oslo"}`).Code)
	assert.Equal(t, map[string]int64{"": 1}, counted(t, r, "toolerr.idempotency.replays"))

	// The same key with another body.
	rec := post(h, secretKey, `{"to":"Bergen"}`)
	require.Equal(t, toolerr.CodeIdempotencyKeyReused, code(t, rec))

	// The same key while its first request runs.
	slow := &labelTool{release: make(chan struct{})}
	hs := newMW(NewMemoryStore(), opts...)(slow)
	done := make(chan int)
	go func() { done <- post(hs, secretKey, `{"to":"Oslo"}`).Code }()
	require.Eventually(t, func() bool { return slow.runs.Load() == 1 }, time.Second, time.Millisecond)
	require.Equal(t, toolerr.CodeIdempotencyInProgress, code(t, post(hs, secretKey, `{"to":"Oslo"}`)))
	close(slow.release)
	require.Equal(t, 201, <-done)

	// The same keyless call twice, through the duplicate-action guard.
	g := DuplicateGuard(NewMemoryStore(), WithLogger(quiet), WithMeterProvider(mp))(&labelTool{})
	require.Equal(t, 201, post(g, "", `{"to":"Oslo"}`).Code)
	require.Equal(t, toolerr.CodeDuplicateAction, code(t, post(g, "", `{"to":"Oslo"}`)))

	assert.Equal(t, map[string]int64{
		"toolerr.idempotency.conflict=payload_mismatch": 1,
		"toolerr.idempotency.conflict=in_flight":        1,
		"toolerr.idempotency.conflict=duplicate_action": 1,
	}, counted(t, r, "toolerr.idempotency.conflicts"))
	assert.Equal(t, map[string]int64{"": 1}, counted(t, r, "toolerr.idempotency.replays"))
	assert.Empty(t, counted(t, r, "toolerr.idempotency.store.unavailable"))
}

// errStoreDown is what a switchStore returns for a method switched off.
var errStoreDown = errors.New("store: connection refused")

// switchStore is a MemoryStore whose methods fail on demand.
type switchStore struct {
	*MemoryStore
	claim, complete, release, get atomic.Bool
}

func (s *switchStore) Claim(ctx context.Context, key, fp string, lease time.Duration) (Claim, error) {
	if s.claim.Load() {
		return Claim{}, errStoreDown
	}
	return s.MemoryStore.Claim(ctx, key, fp, lease)
}

func (s *switchStore) Complete(ctx context.Context, key string, token uint64, resp Response, retention time.Duration) error {
	if s.complete.Load() {
		return errStoreDown
	}
	return s.MemoryStore.Complete(ctx, key, token, resp, retention)
}

func (s *switchStore) Release(ctx context.Context, key string, token uint64) error {
	if s.release.Load() {
		return errStoreDown
	}
	return s.MemoryStore.Release(ctx, key, token)
}

func (s *switchStore) Get(ctx context.Context, key string) (Record, bool, error) {
	if s.get.Load() {
		return Record{}, false, errStoreDown
	}
	return s.MemoryStore.Get(ctx, key)
}

func TestMetricsStoreUnavailable(t *testing.T) {
	mp, r := sdkReader(t)
	s := &switchStore{MemoryStore: NewMemoryStore()}
	tool := &labelTool{}
	closed := newMW(s, WithMeterProvider(mp))(tool)
	open := newMW(s, WithMeterProvider(mp), FailOpen())(tool)
	series := func() map[string]int64 { return counted(t, r, "toolerr.idempotency.store.unavailable") }
	const (
		claimClosed = "toolerr.idempotency.fail_open=false,toolerr.idempotency.store.operation=claim"
		claimOpen   = "toolerr.idempotency.fail_open=true,toolerr.idempotency.store.operation=claim"
		complete    = "toolerr.idempotency.fail_open=false,toolerr.idempotency.store.operation=complete"
		release     = "toolerr.idempotency.fail_open=false,toolerr.idempotency.store.operation=release"
		get         = "toolerr.idempotency.fail_open=false,toolerr.idempotency.store.operation=get"
	)

	s.claim.Store(true)
	require.Equal(t, toolerr.CodeIdempotencyUnavailable, code(t, post(closed, "k-a", `{}`)))
	assert.Equal(t, map[string]int64{claimClosed: 1}, series())
	require.Equal(t, 201, post(open, "k-b", `{}`).Code, "FailOpen: the request runs")
	assert.Equal(t, map[string]int64{claimClosed: 1, claimOpen: 1}, series())
	// The guard lets a call through when it cannot claim.
	g := DuplicateGuard(s, WithLogger(quiet), WithMeterProvider(mp))(tool)
	require.Equal(t, 201, post(g, "", `{"to":"Oslo"}`).Code)
	assert.Equal(t, map[string]int64{claimClosed: 1, claimOpen: 2}, series())
	s.claim.Store(false)

	s.complete.Store(true)
	require.Equal(t, 201, post(closed, "k-c", `{}`).Code)
	assert.Equal(t, map[string]int64{claimClosed: 1, claimOpen: 2, complete: 1}, series())
	s.complete.Store(false)

	// A 500 releases its key; the release fails.
	failing := newMW(s, WithMeterProvider(mp))(&labelTool{status: http.StatusInternalServerError})
	s.release.Store(true)
	require.Equal(t, 500, post(failing, "k-d", `{}`).Code)
	assert.Equal(t, map[string]int64{claimClosed: 1, claimOpen: 2, complete: 1, release: 1}, series())
	s.release.Store(false)

	// A retry that waits for its key in flight cannot read it.
	slow := &labelTool{release: make(chan struct{})}
	waiting := newMW(s, WithMeterProvider(mp), WithWait(time.Second))(slow)
	done := make(chan int)
	go func() { done <- post(waiting, "k-e", `{}`).Code }()
	require.Eventually(t, func() bool { return slow.runs.Load() == 1 }, time.Second, time.Millisecond)
	s.get.Store(true)
	require.Equal(t, toolerr.CodeIdempotencyInProgress, code(t, post(waiting, "k-e", `{}`)))
	s.get.Store(false)
	close(slow.release)
	require.Equal(t, 201, <-done)
	assert.Equal(t, map[string]int64{claimClosed: 1, claimOpen: 2, complete: 1, release: 1, get: 1}, series())
	assert.Equal(t, map[string]int64{"toolerr.idempotency.conflict=in_flight": 1}, counted(t, r, "toolerr.idempotency.conflicts"))
}

func TestMetricsToolCalls(t *testing.T) {
	mp, r := sdkReader(t)
	s := &switchStore{MemoryStore: NewMemoryStore()}
	tc := NewToolCalls(s, WithLogger(quiet), WithMeterProvider(mp))
	ctx := context.Background()
	label := func(context.Context) ([]byte, bool) { return []byte(`{"label":"lbl-1"}`), true }
	call := ToolCall{Principal: "tenant-7", Tool: "create_label", Arguments: []byte(`{"to":"Oslo"}`), Key: secretKey}

	_, replayed, refusal := tc.Do(ctx, call, true, label)
	require.Nil(t, refusal)
	require.False(t, replayed)
	_, replayed, refusal = tc.Do(ctx, call, true, label)
	require.Nil(t, refusal)
	require.True(t, replayed)

	other := call
	other.Arguments = []byte(`{"to":"Bergen"}`)
	_, _, refusal = tc.Do(ctx, other, true, label)
	require.NotNil(t, refusal)
	require.Equal(t, toolerr.CodeIdempotencyKeyReused, refusal.Code)

	// In flight.
	started, finish := make(chan struct{}), make(chan struct{})
	running := call
	running.Key = "op-4412"
	go func() {
		_, _, _ = tc.Do(ctx, running, true, func(context.Context) ([]byte, bool) {
			close(started)
			<-finish
			return nil, true
		})
	}()
	<-started
	_, _, refusal = tc.Do(ctx, running, true, label)
	require.NotNil(t, refusal)
	require.Equal(t, toolerr.CodeIdempotencyInProgress, refusal.Code)
	close(finish)

	// Keyless, guarded, twice.
	keyless := call
	keyless.Key = ""
	_, _, refusal = tc.Do(ctx, keyless, true, label)
	require.Nil(t, refusal)
	_, _, refusal = tc.Do(ctx, keyless, true, label)
	require.NotNil(t, refusal)
	require.Equal(t, toolerr.CodeDuplicateAction, refusal.Code)

	// The store down: refused with a key, let through without one.
	s.claim.Store(true)
	fresh := call
	fresh.Key = "op-4413"
	_, _, refusal = tc.Do(ctx, fresh, true, label)
	require.NotNil(t, refusal)
	require.Equal(t, toolerr.CodeIdempotencyUnavailable, refusal.Code)
	keyless.Arguments = []byte(`{"to":"Tromsø"}`)
	_, _, refusal = tc.Do(ctx, keyless, true, label)
	require.Nil(t, refusal)

	assert.Equal(t, map[string]int64{"": 1}, counted(t, r, "toolerr.idempotency.replays"))
	assert.Equal(t, map[string]int64{
		"toolerr.idempotency.conflict=payload_mismatch": 1,
		"toolerr.idempotency.conflict=in_flight":        1,
		"toolerr.idempotency.conflict=duplicate_action": 1,
	}, counted(t, r, "toolerr.idempotency.conflicts"))
	assert.Equal(t, map[string]int64{
		"toolerr.idempotency.fail_open=false,toolerr.idempotency.store.operation=claim": 1,
		"toolerr.idempotency.fail_open=true,toolerr.idempotency.store.operation=claim":  1,
	}, counted(t, r, "toolerr.idempotency.store.unavailable"))
}

// refusingProvider is a provider whose meters create no counter.
type refusingProvider struct{ noop.MeterProvider }

func (refusingProvider) Meter(string, ...metric.MeterOption) metric.Meter { return refusingMeter{} }

type refusingMeter struct{ noop.Meter }

func (refusingMeter) Int64Counter(name string, _ ...metric.Int64CounterOption) (metric.Int64Counter, error) {
	return nil, errors.New("no counter " + name)
}

func TestMetricsWithoutCountersStillServes(t *testing.T) {
	logs := &recordingHandler{}
	h := Middleware(nil, WithLogger(slog.New(logs)), WithMeterProvider(refusingProvider{}))(&labelTool{})
	require.Equal(t, 201, post(h, secretKey, `{}`).Code)
	again := post(h, secretKey, `{}`)
	require.Equal(t, 201, again.Code)
	assert.Equal(t, "true", again.Header().Get("Idempotent-Replayed"))
	require.Equal(t, toolerr.CodeIdempotencyKeyReused, code(t, post(h, secretKey, `{"n":1}`)))
	warned := strings.Join(logs.messages(), "\n")
	for _, name := range []string{"toolerr.idempotency.replays", "toolerr.idempotency.conflicts", "toolerr.idempotency.store.unavailable"} {
		assert.Contains(t, warned, "cannot create counter "+name)
	}

	// No provider at all: the global one, a no-op here.
	d := DuplicateGuard(nil, WithLogger(quiet))(&labelTool{})
	require.Equal(t, 201, post(d, "", `{}`).Code)
	require.Equal(t, toolerr.CodeDuplicateAction, code(t, post(d, "", `{}`)))
}

func TestMetricsCountingAllocatesNothing(t *testing.T) {
	mp, r := sdkReader(t)
	m := newCounters(mp, quiet)
	ctx := context.Background()
	allocs := testing.AllocsPerRun(100, func() {
		m.replayed(ctx)
		m.conflicted(ctx, conflictDuplicateAction)
		m.storeFailed(ctx, opComplete, false, errStoreDown)
	})
	assert.Zero(t, allocs)
	assert.Equal(t, map[string]int64{"toolerr.idempotency.conflict=duplicate_action": 101},
		counted(t, r, "toolerr.idempotency.conflicts"), "AllocsPerRun's warm-up run and its 100 runs")
}
