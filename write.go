package toolerr

import (
	"mime"
	"net/http"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/toolerr/toolerr/internal/asciifold"
	"github.com/toolerr/toolerr/internal/reqscope"
)

// Format is the rendering of an error response.
type Format int

const (
	// FormatProblem renders RFC 9457 application/problem+json. The default.
	FormatProblem Format = iota
	// FormatEnvelope renders {"ok":false,"error":{…}} as application/json,
	// for agent runtimes that expect one envelope for success and failure.
	FormatEnvelope
)

// Media types of the renderings.
const (
	ContentTypeProblem  = "application/problem+json"
	ContentTypeEnvelope = "application/json"
)

// WriteOption configures [Write]. Options are values that Write reads,
// not functions it calls, so passing them costs Write no allocation.
type WriteOption struct {
	sets     writeSetting // which one of the fields below the option sets
	format   Format
	registry *Registry
}

// writeSetting names the setting a [WriteOption] carries.
type writeSetting uint8

const (
	settingNone writeSetting = iota // the zero WriteOption: sets nothing
	settingFormat
	settingRegistry
)

// writeConfig is the settings of one call of [Write].
type writeConfig struct {
	format   Format
	registry *Registry
}

// apply sets what o carries on c.
func (o WriteOption) apply(c *writeConfig) {
	switch o.sets {
	case settingFormat:
		c.format = o.format
	case settingRegistry:
		c.registry = o.registry
	}
}

// newWriteConfig returns the settings opts make, with the defaults for
// the rest; a nil registry is the default one.
func newWriteConfig(opts []WriteOption) writeConfig {
	var cfg writeConfig
	for _, o := range opts {
		o.apply(&cfg)
	}
	if cfg.registry == nil {
		cfg.registry = Default()
	}
	return cfg
}

// WithFormat sets the rendering used when the request does not ask for
// problem+json explicitly. Default: [FormatProblem].
func WithFormat(f Format) WriteOption {
	return WriteOption{sets: settingFormat, format: f}
}

// WithRegistry sets the registry that builds INTERNAL_ERROR for errors that
// hold no *Error. Default (and for nil): [Default].
func WithRegistry(r *Registry) WriteOption {
	return WriteOption{sets: settingRegistry, registry: r}
}

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 2048); return &b }}

// Write renders err as the response to r.
//
// An *Error anywhere in err's chain is rendered; any other error, or nil,
// becomes INTERNAL_ERROR and its text is not rendered. The request id is the
// context's ([RequestID]) whenever it has a valid one, so the request's own
// id is the only one in the body and the X-Request-Id header; without one it
// comes from the error, else an X-Request-Id already set on w, else a new
// random one. The trace id is likewise the context's ([TraceID]), else the
// error's. The instance defaults to the request path.
//
// Under the middleware's request scope, every string of the error passes
// through the middleware's sanitizer first ([Error.MapText]), and Write
// records the error it rendered, with its Go cause, for the middleware's
// log and metrics.
//
// The rendering follows the request's Accept: the observation
// ([Error.AppendObservation]) as text/markdown or text/plain when Accept
// names one of them with a quality at least that of every JSON type and
// wildcard it names (as Cloudflare's agent-facing errors choose among
// Markdown, JSON and problem+json); else problem+json when Accept names
// application/problem+json; else the configured format. The text renderings
// carry the same members an agent acts on and the same headers. Headers set:
// Content-Type, Content-Length, X-Request-Id, Cache-Control: no-store,
// X-Content-Type-Options: nosniff, and Retry-After in whole seconds, rounded
// up, whenever the body carries retry_after_ms (a retryable rate limit
// always does).
func Write(w http.ResponseWriter, r *http.Request, err error, opts ...WriteOption) {
	cfg := newWriteConfig(opts)
	e, ok := From(err)
	if !ok {
		e = cfg.registry.New(CodeInternal, "").WithCause(err)
	}
	h := w.Header()
	ctxID, ctxTrace := "", ""
	var clean func(string) string
	if r != nil {
		ctx := r.Context()
		ctxID, ctxTrace, clean = RequestID(ctx), TraceID(ctx), reqscope.TextFilter(ctx)
	}
	own := false // e is this call's own copy
	if e.Instance == "" && r != nil && r.URL != nil {
		e, own = e.WithInstance(r.URL.EscapedPath()), true
	}
	// Under a request scope its text filter (the middleware's sanitizer)
	// cleans every member before anything is rendered; the ids the request
	// gives are put in unsanitized (they are the request's own), so the
	// error's ids they replace are not cleaned.
	ownID, ownTrace := ValidRequestID(ctxID), ValidTraceID(ctxTrace)
	filled := e.mapText(clean, ownID, ownTrace)
	// The request's own id is the only one: an id the error carries (a
	// handler's, a downstream service's) never replaces it.
	wantID, wantTrace := ctxID, ctxTrace
	if !ownID {
		wantID = firstValidRequestID(filled.RequestID, h.Get("X-Request-Id"))
	}
	if !ownTrace {
		wantTrace = filled.TraceID
		if !ValidTraceID(wantTrace) {
			wantTrace = ""
		}
	}
	if filled.RequestID != wantID || filled.TraceID != wantTrace {
		// Filled in on a copy of the caller's error: one this call made
		// already (WithInstance's, MapText's), else a new one. An error
		// that carries the ids already (the middleware's own copy) is
		// neither copied nor written to.
		if filled == e && !own {
			cp := *e
			filled = &cp
		}
		filled.RequestID, filled.TraceID = wantID, wantTrace
	}

	if r != nil {
		reqscope.RecordWritten(r.Context(), filled)
	}

	format, text := cfg.format, textNone
	if r != nil {
		accept := ""
		if v := r.Header["Accept"]; len(v) > 0 { // canonical: Get would check it again
			accept = v[0]
		}
		if text = acceptsText(accept); text == textNone && acceptsProblem(accept) {
			format = FormatProblem
		}
	}
	// The header values share one array: one allocation, not one per
	// header, and the keys are canonical already.
	vals := new([6]string)
	set := func(i int, k, v string) {
		vals[i] = v
		h[k] = vals[i : i+1 : i+1]
	}
	bp := bufPool.Get().(*[]byte)
	body := (*bp)[:0]
	switch {
	case text == textMarkdown:
		body = filled.AppendObservation(body, ObservationOptions{Markdown: true})
		set(0, "Content-Type", ContentTypeMarkdown)
	case text == textPlain:
		body = filled.AppendObservation(body, ObservationOptions{})
		set(0, "Content-Type", ContentTypePlain)
	case format == FormatEnvelope:
		body = filled.AppendEnvelope(body)
		set(0, "Content-Type", ContentTypeEnvelope)
	default:
		body = filled.AppendJSON(body)
		set(0, "Content-Type", ContentTypeProblem)
	}
	set(1, "Content-Length", strconv.Itoa(len(body)))
	set(2, "X-Request-Id", filled.RequestID)
	set(3, "Cache-Control", "no-store")
	set(4, "X-Content-Type-Options", "nosniff")
	if d := filled.renderedRetryAfter(); d > 0 {
		set(5, "Retry-After", strconv.FormatInt(retryAfterSeconds(d), 10))
	} else {
		delete(h, "Retry-After")
	}
	status := filled.Status
	if status < 400 || status > 599 {
		status = http.StatusInternalServerError
	}
	w.WriteHeader(status)
	_, _ = w.Write(body) // a failed write means the client went away; nothing to tell it.
	if cap(body) <= 64<<10 {
		*bp = body
		bufPool.Put(bp)
	}
}

// firstValidRequestID returns the first candidate that [ValidRequestID]
// accepts, else a new random id.
func firstValidRequestID(candidates ...string) string {
	for _, id := range candidates {
		if ValidRequestID(id) {
			return id
		}
	}
	return reqscope.NewRequestID()
}

// retryAfterSeconds converts a delay to whole seconds, rounded up, as the
// Retry-After header needs.
func retryAfterSeconds(d time.Duration) int64 {
	return ceilDiv(d, time.Second)
}

// acceptsProblem reports whether an Accept header names
// application/problem+json with a non-zero quality.
func acceptsProblem(accept string) bool {
	// Media types are case-insensitive (RFC 9110 §8.3.1); the quick check
	// must be too, and ParseMediaType lower-cases what it returns.
	if !asciifold.Contains(accept, "problem+json") {
		return false
	}
	for part := range strings.SplitSeq(accept, ",") {
		mt, params, err := mime.ParseMediaType(strings.TrimSpace(part))
		if err != nil || mt != ContentTypeProblem {
			continue
		}
		if q, ok := params["q"]; ok {
			if v, err := strconv.ParseFloat(q, 64); err != nil || v <= 0 {
				return false
			}
		}
		return true
	}
	return false
}
