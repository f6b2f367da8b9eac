package middleware

import (
	"context"
	"log/slog"
	"sync"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"

	"github.com/toolerr/toolerr"
)

// maxWarnedTypes bounds the Go types the middleware remembers having
// warned about: a program has few error types; past the bound, a type is
// warned about again rather than remembered.
const maxWarnedTypes = 256

// warnedTypes is the set of SDK error types already logged. Its zero value
// is ready; it is safe for concurrent use.
type warnedTypes struct {
	mu    sync.Mutex
	types map[string]struct{}
}

// first reports whether goType is logged for the first time, and
// remembers it.
func (w *warnedTypes) first(goType string) bool {
	w.mu.Lock()
	defer w.mu.Unlock()
	if _, seen := w.types[goType]; seen {
		return false
	}
	if w.types == nil {
		w.types = make(map[string]struct{})
	}
	if len(w.types) < maxWarnedTypes {
		w.types[goType] = struct{}{}
	}
	return true
}

// reportUnreadSDK counts, as an unmapped failure of the SDK's vendor, an
// SDK's typed error that no mapper read and that became INTERNAL_ERROR,
// and logs it at WARN the first time its Go type is seen: the line names
// the type and what to register or upgrade (a mapper built for another
// major version of the SDK reads nothing of this one).
func (t *telemetry) reportUnreadSDK(ctx context.Context, sdk, goType, advice string) {
	t.unmapped.Add(ctx, 1, metric.WithAttributes(
		attribute.String("toolerr.vendor", sdk),
		attribute.String("error.type", toolerr.CodeInternal),
		attribute.String("toolerr.upstream.status", "0"),
	))
	if !t.warned.first(goType) {
		return
	}
	t.logger.LogAttrs(ctx, slog.LevelWarn, "toolerr: an SDK error no mapper read became INTERNAL_ERROR; "+advice,
		slog.String("sdk", sdk),
		slog.String("go_type", goType),
		slog.String("request_id", toolerr.RequestID(ctx)),
	)
}
