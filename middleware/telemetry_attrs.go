package middleware

import (
	"maps"
	"reflect"
	"sync"
	"sync/atomic"

	"go.opentelemetry.io/otel"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/trace"
	tracenoop "go.opentelemetry.io/otel/trace/noop"

	"github.com/toolerr/toolerr"
)

// maxAttrSets bounds the attribute sets an attrCache keeps. Codes,
// categories and statuses are few, but tool and vendor names come from the
// service and its downstreams: past the bound a set is built per error.
const maxAttrSets = 512

// attrKey is what the toolerr.errors counter's attributes are made of.
type attrKey struct {
	code, category, tool, vendor string
	status                       int
}

// attrCache holds the toolerr.errors counter's options per attribute
// combination, built once: an error with a combination seen before adds
// to the counter without allocating. Reads take no lock; a new
// combination copies the map under a mutex.
type attrCache struct {
	mu   sync.Mutex
	sets atomic.Pointer[map[attrKey][]metric.AddOption]
}

// errorOptions returns the counter options of one error.
func (c *attrCache) errorOptions(code string, category toolerr.Category, tool, vendor string, status int) []metric.AddOption {
	k := attrKey{code: code, category: string(category), tool: tool, vendor: vendor, status: status}
	if m := c.sets.Load(); m != nil {
		if opts, ok := (*m)[k]; ok {
			return opts
		}
	}
	opts := []metric.AddOption{metric.WithAttributeSet(attribute.NewSet(
		attribute.String("error.type", k.code),
		attribute.String("toolerr.category", k.category),
		attribute.String("toolerr.tool", k.tool),
		attribute.String("toolerr.vendor", k.vendor),
		attribute.Int("http.response.status_code", k.status),
	))}
	c.mu.Lock()
	defer c.mu.Unlock()
	old := c.sets.Load()
	if old != nil && len(*old) >= maxAttrSets {
		return opts
	}
	m := make(map[attrKey][]metric.AddOption, 1+lenOf(old))
	if old != nil {
		maps.Copy(m, *old)
	}
	m[k] = opts
	c.sets.Store(&m)
	return opts
}

// lenOf returns the length of the map m points to, 0 for nil.
func lenOf(m *map[attrKey][]metric.AddOption) int {
	if m == nil {
		return 0
	}
	return len(*m)
}

// globalTracerPkg is the package of the tracer provider otel returns
// before an SDK is installed: it delegates to the SDK set later, and until
// then starts spans that record nothing.
const globalTracerPkg = "go.opentelemetry.io/otel/internal/global"

// tracingProbe returns a function reporting whether a span started with
// tp could record, so that an error in a service with no SDK starts no
// span and allocates nothing for one: false for a no-op provider, and for
// otel's global provider as long as no SDK has been installed behind it
// (otel.SetTracerProvider replaces what otel.GetTracerProvider returns);
// true otherwise.
func tracingProbe(tp trace.TracerProvider) func() bool {
	if _, ok := tp.(tracenoop.TracerProvider); ok {
		return func() bool { return false }
	}
	if t := reflect.TypeOf(tp); t.Kind() == reflect.Pointer && t.Elem().PkgPath() == globalTracerPkg {
		return func() bool { return otel.GetTracerProvider() != tp }
	}
	return func() bool { return true }
}
