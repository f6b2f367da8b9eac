package idempotency

import (
	"context"
	"errors"
	"log/slog"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"
)

// scopeName is the instrumentation scope of the package's meter.
const scopeName = "github.com/toolerr/toolerr/idempotency"

// WithMeterProvider sets the provider of the metrics of [Middleware],
// [DuplicateGuard] and [ToolCalls], under this package's import path as
// the instrumentation scope:
//
//   - toolerr.idempotency.replays: stored responses replayed;
//   - toolerr.idempotency.conflicts, by toolerr.idempotency.conflict:
//     in_flight (IDEMPOTENCY_IN_PROGRESS), payload_mismatch
//     (IDEMPOTENCY_KEY_REUSED) or duplicate_action (DUPLICATE_ACTION);
//   - toolerr.idempotency.store.unavailable, by
//     toolerr.idempotency.store.operation (the Store method that failed:
//     claim, complete, release or get) and toolerr.idempotency.fail_open
//     (true when the request went ahead without the store).
//
// No key, principal, tool or request id is an attribute. Default:
// otel.GetMeterProvider(), the global provider, which records nothing
// until an SDK is installed. A nil mp keeps the default. A counter the
// meter cannot create is not recorded, with a warning on the logger
// ([WithLogger]): requests are served either way. Ignored by
// [ThrashGuard] and [ThrashCalls].
func WithMeterProvider(mp metric.MeterProvider) Option {
	return func(c *config) {
		if mp != nil {
			c.meters = mp
		}
	}
}

// conflict is a kind of toolerr.idempotency.conflicts.
type conflict int

const (
	conflictInFlight conflict = iota
	conflictPayloadMismatch
	conflictDuplicateAction
)

// storeOp is a Store method, as toolerr.idempotency.store.operation names
// it.
type storeOp int

const (
	opClaim storeOp = iota
	opComplete
	opRelease
	opGet
	storeOps
)

// Attribute keys of the package's metrics.
const (
	attrConflict = attribute.Key("toolerr.idempotency.conflict")
	attrStoreOp  = attribute.Key("toolerr.idempotency.store.operation")
	attrFailOpen = attribute.Key("toolerr.idempotency.fail_open")
)

// The attribute sets of the counters, built once: every value is from a
// fixed set, so counting allocates nothing. They are never written after.
var (
	conflictOpts = [...][]metric.AddOption{
		conflictInFlight:        addOpts(attrConflict.String("in_flight")),
		conflictPayloadMismatch: addOpts(attrConflict.String("payload_mismatch")),
		conflictDuplicateAction: addOpts(attrConflict.String("duplicate_action")),
	}
	storeOpNames    = [storeOps]string{opClaim: "claim", opComplete: "complete", opRelease: "release", opGet: "get"}
	unavailableOpts = func() (o [storeOps][2][]metric.AddOption) {
		for op, name := range storeOpNames {
			o[op][0] = addOpts(attrStoreOp.String(name), attrFailOpen.Bool(false))
			o[op][1] = addOpts(attrStoreOp.String(name), attrFailOpen.Bool(true))
		}
		return o
	}()
)

// addOpts returns the Add options of the attribute set kv.
func addOpts(kv ...attribute.KeyValue) []metric.AddOption {
	return []metric.AddOption{metric.WithAttributeSet(attribute.NewSet(kv...))}
}

// counters are the package's counters of one configuration.
type counters struct {
	replays     metric.Int64Counter
	conflicts   metric.Int64Counter
	unavailable metric.Int64Counter
}

// newCounters creates the counters on mp's meter (nil:
// otel.GetMeterProvider()); one the meter cannot create is a no-op, after
// a warning on logger.
func newCounters(mp metric.MeterProvider, logger *slog.Logger) counters {
	if mp == nil {
		mp = otel.GetMeterProvider()
	}
	meter := mp.Meter(scopeName)
	counter := func(name, unit, desc string) metric.Int64Counter {
		c, err := meter.Int64Counter(name, metric.WithUnit(unit), metric.WithDescription(desc))
		if err != nil || c == nil {
			logger.Warn("toolerr: cannot create counter "+name+"; it is not recorded", slog.Any("error", err))
			return noop.Int64Counter{}
		}
		return c
	}
	return counters{
		replays: counter("toolerr.idempotency.replays", "{response}",
			"Stored responses replayed to a retry with the same idempotency key."),
		conflicts: counter("toolerr.idempotency.conflicts", "{request}",
			"Requests refused as a conflict: the key in flight, the key reused with another request, or a duplicate action."),
		unavailable: counter("toolerr.idempotency.store.unavailable", "{error}",
			"Store calls that failed, by Store method and whether the request went ahead without the store."),
	}
}

// replayed counts a stored response replayed.
func (m *counters) replayed(ctx context.Context) {
	m.replays.Add(ctx, 1)
}

// conflicted counts a request refused as conflict k.
func (m *counters) conflicted(ctx context.Context, k conflict) {
	m.conflicts.Add(ctx, 1, conflictOpts[k]...)
}

// storeFailed counts a failure err of the store's method op, the request
// having gone ahead without the store when open. An ErrLostClaim (the
// store answered: another request holds the key) and a failure of a
// request whose context ended (its caller went away) are not counted.
func (m *counters) storeFailed(ctx context.Context, op storeOp, open bool, err error) {
	if err == nil || errors.Is(err, ErrLostClaim) || ctx.Err() != nil {
		return
	}
	i := 0
	if open {
		i = 1
	}
	m.unavailable.Add(ctx, 1, unavailableOpts[op][i]...)
}
