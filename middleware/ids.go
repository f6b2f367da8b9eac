package middleware

import (
	"net/http"
	"strings"

	chimw "github.com/go-chi/chi/v5/middleware"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolerr/toolerr"
)

// requestID returns the id of r by the middleware's policy.
func (m *handler) requestID(r *http.Request) string {
	if m.cfg.idPolicy == TrustIncoming {
		if id, ok := m.cleanID(chimw.GetReqID(r.Context())); ok {
			return id
		}
		if id, ok := m.cleanID(firstValue(r.Header, "X-Request-Id")); ok {
			return id
		}
	}
	return toolerr.NewRequestID()
}

// cleanID returns id when it is a valid request id the sanitizer leaves
// unchanged. An id is echoed to the agent, so a client's id carrying a key
// is not taken, and neither is the host name that chi's ids start with
// ("ip-10-1-2-3.ec2.internal/Cwo9MeKE5n-000001", the server's own name):
// then the part after the last '/', which chi's log lines also hold, is
// the id when it is clean.
func (m *handler) cleanID(id string) (string, bool) {
	if !toolerr.ValidRequestID(id) {
		return "", false
	}
	if m.cfg.sanitizer.CleanText(id) == id {
		return id, true
	}
	if k := strings.LastIndexByte(id, '/'); k >= 0 {
		if tail := id[k+1:]; toolerr.ValidRequestID(tail) && m.cfg.sanitizer.CleanText(tail) == tail {
			return tail, true
		}
	}
	return "", false
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
