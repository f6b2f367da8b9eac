package toolmetrics

import (
	"maps"
	"sync"
	"sync/atomic"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
)

// MaxAttrSets bounds the attribute combinations one instrument of a [Set]
// records; past it, new ones are counted under otel.metric.overflow=true.
const MaxAttrSets = 512

// attrCache holds an instrument's options per attribute combination K,
// built once: a combination seen before adds without allocating (the
// options are kept as the slice Add's variadic parameter takes, so not
// even that slice is made per call). Reads
// take no lock; a new combination copies the map under a mutex.
type attrCache[K comparable] struct {
	mu       sync.Mutex
	sets     atomic.Pointer[map[K][]metric.AddOption]
	overflow []metric.AddOption // under mu
}

// options returns the options of k, building them with build the first
// time, or the overflow options once the cache is full.
func (c *attrCache[K]) options(k K, build func(K) attribute.Set) []metric.AddOption {
	if m := c.sets.Load(); m != nil {
		if opt, ok := (*m)[k]; ok {
			return opt
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.sets.Load()
	if old != nil {
		if opt, ok := (*old)[k]; ok {
			return opt
		}
		if len(*old) >= MaxAttrSets {
			if c.overflow == nil {
				c.overflow = []metric.AddOption{metric.WithAttributeSet(attribute.NewSet(overflow))}
			}
			return c.overflow
		}
	}
	opt := []metric.AddOption{metric.WithAttributeSet(build(k))}
	m := make(map[K][]metric.AddOption, 1+lenOf(old))
	if old != nil {
		maps.Copy(m, *old)
	}
	m[k] = opt
	c.sets.Store(&m)
	return opt
}

// lenOf returns the length of the map m points to, 0 for nil.
func lenOf[K comparable, V any](m *map[K]V) int {
	if m == nil {
		return 0
	}
	return len(*m)
}
