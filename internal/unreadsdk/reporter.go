// Package unreadsdk reports an SDK's typed error that nothing read: one
// that ended as INTERNAL_ERROR although its chain holds an error of an SDK
// toolerr knows (classify.UnreadSDK). The HTTP middleware and the MCP
// adapters share it, so that neither fails silently.
package unreadsdk

import (
	"context"
	"log/slog"
	"sync"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/toolmetrics"
)

// maxWarnedTypes bounds the Go types a Reporter remembers having warned
// about: a program has few error types; past the bound, a type is warned
// about again rather than remembered.
const maxWarnedTypes = 256

// Warning starts the line logged for an unread SDK error.
const Warning = "toolerr: an SDK error no mapper read became INTERNAL_ERROR; "

// Reporter counts unread SDK errors in a toolerr.upstream.unmapped
// counter, under the SDK's name, and logs each Go type once at WARN. It is
// safe for concurrent use.
type Reporter struct {
	metrics *toolmetrics.Set
	logger  *slog.Logger

	mu     sync.Mutex
	warned map[string]struct{}
}

// New returns a Reporter that counts in metrics' toolerr.upstream.unmapped
// and logs to logger.
func New(metrics *toolmetrics.Set, logger *slog.Logger) *Reporter {
	return &Reporter{metrics: metrics, logger: logger}
}

// Report counts and logs err when its chain holds a known SDK's error; it
// is called for an error that became INTERNAL_ERROR, and reports whether
// err was an SDK's. It is counted with no upstream status (0).
func (r *Reporter) Report(ctx context.Context, err error) bool {
	sdk, goType, advice, ok := classify.UnreadSDK(err)
	if !ok {
		return false
	}
	r.metrics.Unmapped(ctx, sdk, 0, toolerr.CodeInternal)
	if r.first(goType) {
		r.logger.LogAttrs(ctx, slog.LevelWarn, Warning+advice,
			slog.String("sdk", sdk),
			slog.String("go_type", goType),
			slog.String("request_id", toolerr.RequestID(ctx)),
		)
	}
	return true
}

// first reports whether goType is logged for the first time, and
// remembers it.
func (r *Reporter) first(goType string) bool {
	r.mu.Lock()
	defer r.mu.Unlock()
	if _, seen := r.warned[goType]; seen {
		return false
	}
	if r.warned == nil {
		r.warned = make(map[string]struct{})
	}
	if len(r.warned) < maxWarnedTypes {
		r.warned[goType] = struct{}{}
	}
	return true
}
