package toolmetrics

import (
	"context"
	"log/slog"
	"maps"
	"sync"
	"sync/atomic"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// callCount is the running count of one tool's calls.
type callCount struct {
	n   atomic.Int64
	opt metric.ObserveOption
}

// callCounts counts calls per tool in memory and reports the counts to
// the toolerr.tool.calls counter when the SDK collects, through a
// callback: a call costs one atomic add, not a counter's Add, so counting
// every call leaves a request that succeeds as fast as before. Reads take
// no lock; a tool seen for the first time copies the map under a mutex.
// Past MaxAttrSets tools, the rest share one count under
// otel.metric.overflow=true.
type callCounts struct {
	mu       sync.Mutex
	tools    atomic.Pointer[map[string]*callCount]
	overflow callCount
}

// newCallCounts registers the toolerr.tool.calls counter on meter. When
// the meter cannot create it, calls are still counted in memory and never
// reported, after a warning.
func newCallCounts(meter metric.Meter, logger *slog.Logger) *callCounts {
	c := &callCounts{}
	empty := map[string]*callCount{}
	c.tools.Store(&empty)
	c.overflow.opt = metric.WithAttributeSet(attribute.NewSet(overflow))
	// The callback holds the counts for as long as the provider lives, so
	// that counts made before an adapter became unreachable are still
	// reported at the provider's last collection (its Shutdown); an
	// adapter is built once per service, not per request.
	// The callback is registered on its own (RegisterCallback), not as an
	// instrument option: the SDK hands a second Set on the same meter the
	// instrument the first made, and drops the option's callback, while
	// callbacks registered for it run each, their observations of one
	// tool summed.
	inst, err := meter.Int64ObservableCounter(NameCalls, metric.WithUnit("{call}"),
		metric.WithDescription("Tool calls served, by tool: the denominator of the error rate."))
	if err == nil {
		_, err = meter.RegisterCallback(func(_ context.Context, o metric.Observer) error {
			c.observe(o, inst)
			return nil
		}, inst)
	}
	if err != nil {
		logger.Warn("toolerr: cannot create counter "+NameCalls, slog.Any("error", err))
	}
	return c
}

// add counts one call of tool.
func (c *callCounts) add(tool string) {
	if n, ok := (*c.tools.Load())[tool]; ok {
		n.n.Add(1)
		return
	}
	c.slow(tool).n.Add(1)
}

// slow returns the count of a tool not in the map, adding it.
func (c *callCounts) slow(tool string) *callCount {
	c.mu.Lock()
	defer c.mu.Unlock()
	old := *c.tools.Load()
	if n, ok := old[tool]; ok {
		return n
	}
	if len(old) >= MaxAttrSets {
		return &c.overflow
	}
	n := &callCount{}
	if tool == "" {
		n.opt = metric.WithAttributeSet(*attribute.EmptySet())
	} else {
		n.opt = metric.WithAttributeSet(attribute.NewSet(KeyToolName.String(tool)))
	}
	m := make(map[string]*callCount, len(old)+1)
	maps.Copy(m, old)
	m[tool] = n
	c.tools.Store(&m)
	return n
}

// observe reports every tool's count to inst.
func (c *callCounts) observe(o metric.Observer, inst metric.Int64Observable) {
	for _, n := range *c.tools.Load() {
		o.ObserveInt64(inst, n.n.Load(), n.opt)
	}
	if v := c.overflow.n.Load(); v > 0 {
		o.ObserveInt64(inst, v, c.overflow.opt)
	}
}
