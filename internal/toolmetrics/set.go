package toolmetrics

import (
	"context"
	"log/slog"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/metric"
	"go.opentelemetry.io/otel/metric/noop"
)

// Instrument names.
const (
	NameCalls      = "toolerr.tool.calls"
	NameErrors     = "toolerr.errors"
	NameUnmapped   = "toolerr.upstream.unmapped"
	NameTruncated  = "toolerr.observations.truncated"
	NameRedactions = "toolerr.redactions"
)

// Attribute keys of toolerr's own.
const (
	KeyCategory      = attribute.Key("toolerr.category")
	KeyVendor        = attribute.Key("toolerr.vendor")
	KeyTruncation    = attribute.Key("toolerr.truncation.stage")
	KeyRedactionKind = attribute.Key("toolerr.redaction.kind")
)

// Attribute keys of the semantic conventions (v1.40.0).
const (
	KeyErrorType  = attribute.Key("error.type")
	KeyToolName   = attribute.Key("gen_ai.tool.name")
	KeyHTTPStatus = attribute.Key("http.response.status_code")
)

// Truncation stages: where the text an agent reads was cut.
const (
	// StageCapture is an upstream's error body longer than the capture
	// cap: only its start was read.
	StageCapture = "capture"
	// StageText is a text cut to the sanitizer's output cap.
	StageText = "text"
)

// overflow is the attribute a combination past MaxAttrSets is counted
// under.
var overflow = attribute.Bool("otel.metric.overflow", true)

// Set is the instruments of one adapter. It is safe for concurrent use.
type Set struct {
	errors     metric.Int64Counter
	unmapped   metric.Int64Counter
	truncated  metric.Int64Counter
	redactions metric.Int64Counter
	calls      *callCounts

	errAttrs      attrCache[errorKey]
	unmappedAttrs attrCache[unmappedKey]
	stages        [2][]metric.AddOption // StageCapture, StageText
	redactionOpts *redactionOptions
}

// New creates the instruments of an adapter on mp's meter named scope. An
// instrument the meter cannot create is replaced by a no-op one after a
// warning on logger: telemetry never stops a request.
func New(mp metric.MeterProvider, scope string, logger *slog.Logger) *Set {
	meter := mp.Meter(scope)
	counter := func(name, unit, desc string) metric.Int64Counter {
		c, err := meter.Int64Counter(name, metric.WithUnit(unit), metric.WithDescription(desc))
		if err != nil || c == nil {
			logger.Warn("toolerr: cannot create counter "+name, slog.Any("error", err))
			return noop.Int64Counter{}
		}
		return c
	}
	s := &Set{
		errors: counter(NameErrors, "{error}",
			"Errors returned to tool callers, by code, category, tool and vendor."),
		unmapped: counter(NameUnmapped, "{response}",
			"Downstream failures no mapping table explained: a vendor code no table maps, UPSTREAM_UNCLASSIFIED, an SDK error nothing read."),
		truncated: counter(NameTruncated, "{observation}",
			"Errors whose text for the agent was cut: an upstream body past the capture cap, or a text past the sanitizer's output cap."),
		redactions: counter(NameRedactions, "{redaction}",
			"What the sanitizer removed from text bound for agents, logs and spans, by kind."),
	}
	s.stages[0] = []metric.AddOption{metric.WithAttributeSet(attribute.NewSet(KeyTruncation.String(StageCapture)))}
	s.stages[1] = []metric.AddOption{metric.WithAttributeSet(attribute.NewSet(KeyTruncation.String(StageText)))}
	s.redactionOpts = newRedactionOptions()
	s.calls = newCallCounts(meter, logger)
	return s
}

// Call counts one call of tool (the empty name: a call no tool name was
// known for). It costs one atomic add for a tool seen before.
func (s *Set) Call(tool string) { s.calls.add(tool) }

// Truncated counts one observation cut at stage ([StageCapture] or
// [StageText]).
func (s *Set) Truncated(ctx context.Context, stage string) {
	opt := s.stages[1]
	if stage == StageCapture {
		opt = s.stages[0]
	}
	s.truncated.Add(ctx, 1, opt...)
}
