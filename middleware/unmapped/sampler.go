package unmapped

import (
	"context"
	"log/slog"
	"time"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/textcut"
	"github.com/toolerr/toolerr/middleware/sanitize"
)

// logMessage is the message of the log record of a sample.
const logMessage = "toolerr: unmapped response sample"

// Sampler keeps bounded, rate-limited, sanitized samples of unmapped
// responses. Create it with [New]; it is safe for concurrent use. A nil
// *Sampler samples nothing.
type Sampler struct {
	limit  *limiter
	fields fields
	recent *ring
	logger *slog.Logger
	now    func() time.Time
}

// New returns a Sampler with the options' settings; see the options for
// the defaults.
func New(opts ...Option) *Sampler {
	cfg := config{
		capacity:  DefaultCapacity,
		interval:  DefaultPairInterval,
		rate:      DefaultRate,
		bodyBytes: DefaultBodyBytes,
		now:       time.Now,
	}
	for _, o := range opts {
		o(&cfg)
	}
	if cfg.san == nil {
		cfg.san = sanitize.New()
	}
	if cfg.logger == nil {
		cfg.logger = slog.Default()
	}
	return &Sampler{
		limit:  newLimiter(cfg.interval, cfg.rate, MaxPairs),
		fields: fields{san: cfg.san, headers: allowList(cfg.headers), bodyBytes: cfg.bodyBytes},
		recent: newRing(cfg.capacity),
		logger: cfg.logger,
		now:    cfg.now,
	}
}

// Offer offers one unmapped response. When the rate limits let it through
// (one sample per vendor and status pair and pair interval, and the
// global rate), Offer sanitizes it into a [Sample], keeps the sample in
// the ring of recent ones, writes it to the log as one Warn record and
// returns true. Otherwise it counts the response as suppressed for its
// pair, allocates nothing and returns false. ctx is the context of the
// log record, whose request id the record carries; a cancelled context
// does not stop the sample, which is about the upstream's response.
func (s *Sampler) Offer(ctx context.Context, in Response) bool {
	if s == nil {
		return false
	}
	now := s.now()
	sampled, suppressed := s.limit.admit(pairVendor(in.Vendor), in.Status, now)
	if !sampled {
		return false
	}
	smp := s.fields.sample(in, now, suppressed)
	s.recent.add(smp)
	s.log(ctx, smp)
	return true
}

// pairVendor returns the name a response's pair is known by: its vendor
// cut at maxVendorKey bytes, at a rune. It is a key, never shown, so it
// needs no sanitizing.
func pairVendor(vendor string) string {
	return textcut.AtRune(vendor, maxVendorKey)
}

// Samples returns copies of the recent samples, newest first.
func (s *Sampler) Samples() []Sample {
	if s == nil {
		return nil
	}
	return s.recent.newestFirst()
}

// log writes smp as one Warn record.
func (s *Sampler) log(ctx context.Context, smp Sample) {
	if !s.logger.Enabled(ctx, slog.LevelWarn) {
		return
	}
	header := make([]any, 0, len(smp.Header))
	for _, name := range s.fields.headers {
		if v, ok := smp.Header[name]; ok {
			header = append(header, slog.String(name, v))
		}
	}
	s.logger.LogAttrs(ctx, slog.LevelWarn, logMessage,
		slog.String("vendor", smp.Vendor),
		slog.Int("upstream_status", smp.Status),
		slog.String("code", smp.Code),
		slog.String("vendor_code", smp.VendorCode),
		slog.Group("header", header...),
		slog.String("body", smp.Body),
		slog.Int("body_bytes", smp.BodyBytes),
		slog.Int("suppressed", smp.Suppressed),
		slog.String("request_id", toolerr.RequestID(ctx)),
	)
}
