package toolmetrics

import (
	"context"
	"log/slog"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/reqscope"
	"github.com/toolerr/toolerr/middleware/sanitize"
	"github.com/toolerr/toolerr/middleware/unmapped"
)

// UnmappedReporter is what a serving adapter does with a downstream
// response no mapping explained: count it in toolerr.upstream.unmapped,
// offer it to the sampler (when there is one), and log it loudly, so a
// translator that is out of date shows. Its Report is the Unmapped hook
// of the adapter's request scopes.
type UnmappedReporter struct {
	Metrics   *Set
	Sanitizer *sanitize.Sanitizer
	Samples   *unmapped.Sampler // or nil
	Logger    *slog.Logger
}

// Report counts, samples and logs u.
func (r *UnmappedReporter) Report(ctx context.Context, u reqscope.UnmappedResponse) {
	vendor := r.Sanitizer.CleanText(u.Vendor)
	r.Metrics.Unmapped(ctx, vendor, u.Status, u.Code)
	r.Samples.Offer(ctx, unmapped.Response{Vendor: vendor, Status: u.Status, Header: u.Header,
		Body: u.Body, Code: u.Code, VendorCode: u.VendorCode})
	if vendor == "" {
		vendor = Unknown
	}
	r.Logger.LogAttrs(ctx, slog.LevelWarn, "toolerr: downstream failure not mapped; update the translator",
		slog.String("vendor", vendor),
		slog.Int("upstream_status", u.Status),
		slog.String("vendor_code", r.Sanitizer.CleanText(u.VendorCode)),
		slog.String("code", u.Code),
		slog.String("request_id", toolerr.RequestID(ctx)),
	)
}
