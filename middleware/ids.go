package middleware

import (
	"net/http"

	chimw "github.com/go-chi/chi/v5/middleware"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolerr/toolerr"
)

// requestID returns the id of r by the middleware's policy.
func (m *handler) requestID(r *http.Request) string {
	if m.cfg.idPolicy == TrustIncoming {
		if id := chimw.GetReqID(r.Context()); toolerr.ValidRequestID(id) {
			return id
		}
		if id := firstValue(r.Header, "X-Request-Id"); toolerr.ValidRequestID(id) {
			return id
		}
	}
	return toolerr.NewRequestID()
}

// traceIDOf returns the trace id of the span in r's context, else of a
// valid W3C traceparent header, else "": a trace id is never invented.
func traceIDOf(r *http.Request) string {
	if sc := trace.SpanContextFromContext(r.Context()); sc.HasTraceID() {
		return sc.TraceID().String()
	}
	return traceparentTraceID(firstValue(r.Header, "Traceparent"))
}

// firstValue is h.Get for a key already in canonical form: the server
// canonicalizes incoming header names, so the lookup can skip doing it
// again on every request.
func firstValue(h http.Header, canonicalKey string) string {
	if v := h[canonicalKey]; len(v) > 0 {
		return v[0]
	}
	return ""
}

// traceparentTraceID returns the trace id of a W3C traceparent value
// ("00-<32 hex trace id>-<16 hex parent id>-<2 hex flags>"), or "" when the
// value is not valid. Version 00 must be exactly 55 bytes; later versions
// may append fields after a dash; version ff is invalid.
func traceparentTraceID(v string) string {
	if len(v) < 55 || v[2] != '-' || v[35] != '-' || v[52] != '-' {
		return ""
	}
	version, flags := v[:2], v[53:55]
	if !lowerHex(version) || version == "ff" || !lowerHex(flags) {
		return ""
	}
	if version == "00" && len(v) != 55 {
		return ""
	}
	if len(v) > 55 && v[55] != '-' {
		return ""
	}
	parent := v[36:52]
	if !lowerHex(parent) || parent == "0000000000000000" {
		return ""
	}
	id := v[3:35]
	if !toolerr.ValidTraceID(id) {
		return ""
	}
	return id
}

// lowerHex reports whether s is lower-case hexadecimal digits.
func lowerHex(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return false
		}
	}
	return true
}
