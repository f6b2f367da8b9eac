package middleware

import (
	"net/http"
	"strings"
	"sync/atomic"
	"unsafe"

	chimw "github.com/go-chi/chi/v5/middleware"
	"go.opentelemetry.io/otel/trace"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/canonheader"
	"github.com/toolerr/toolerr/internal/reqscope"
)

// requestIDs holds the request's id bytes, when the middleware made the
// id, and the header values stamp sets, in one small allocation of their
// own. The id string is made over buf, so it needs no allocation of its
// own; and it is not made over the recorder, so an id something keeps
// after the request (a log line, an idempotency record) keeps these 80
// bytes alive, never the request's state and the connection it points to.
type requestIDs struct {
	buf  [reqscope.RequestIDLen]byte
	vals [3]string // the header values stamp sets (stamp.go)
}

// requestID returns the id of r by the middleware's policy; a new id is
// made in ids.buf. resp is the response's header as the middleware finds
// it: a request-id middleware of the service that ran before this one
// (echo's RequestID, gin-contrib's requestid) has put its id there, and
// that id is the request's, so that the client sees one.
func (m *handler) requestID(r *http.Request, resp http.Header, ids *requestIDs) string {
	if m.cfg.idPolicy == TrustIncoming {
		if id, ok := m.cleanID(chimw.GetReqID(r.Context())); ok {
			return id
		}
		if v := resp["X-Request-Id"]; len(v) == 1 {
			if id, ok := m.cleanID(v[0]); ok {
				return id
			}
		}
		if id, ok := m.cleanID(canonheader.Value(r.Header, "X-Request-Id")); ok {
			return id
		}
	}
	id := reqscope.AppendRequestID(ids.buf[:0])
	// buf is written here once and never again, so the string over it is
	// immutable, as a string must be.
	return unsafe.String(&id[0], len(id))
}

// cleanID returns id when it is a valid request id the sanitizer leaves
// unchanged. An id is echoed to the agent, so a client's id carrying a key
// is not taken, and neither is the host name that chi's ids start with
// ("ip-10-1-2-3.ec2.internal/Cwo9MeKE5n-000001", the server's own name):
// then the part after the last '/', which chi's log lines also hold, is
// the id when it is clean.
//
// Cleaning costs about 600 ns, more than the rest of the pass-through
// path, and chi's ids differ only in their counter ("…-000001",
// "…-000002"): the verdict on an id's part before its counter is kept
// (idVerdicts), so a service behind chi's RequestID cleans one id, not
// one per request.
func (m *handler) cleanID(id string) (string, bool) {
	if !toolerr.ValidRequestID(id) {
		return "", false
	}
	stem, counted := idStem(id)
	if counted {
		if v := m.ids.last.Load(); v != nil && v.stem == stem {
			return v.apply(id)
		}
	}
	v := &idVerdict{stem: stem, mode: idRejected}
	switch k := strings.LastIndexByte(id, '/'); {
	case m.cfg.sanitizer.CleanText(id) == id:
		v.mode = idWhole
	case k >= 0 && toolerr.ValidRequestID(id[k+1:]) && m.cfg.sanitizer.CleanText(id[k+1:]) == id[k+1:]:
		v.mode = idTail
	}
	if counted {
		m.ids.last.Store(v)
	}
	return v.apply(id)
}

// idStem returns id without its counter: the part before a last '-'
// followed only by digits, as chi's ids end. counted is false when id has
// no such counter.
func idStem(id string) (stem string, counted bool) {
	k := strings.LastIndexByte(id, '-')
	if k <= 0 || k == len(id)-1 {
		return id, false
	}
	for i := k + 1; i < len(id); i++ {
		if id[i] < '0' || id[i] > '9' {
			return id, false
		}
	}
	return id[:k], true
}

// idVerdicts holds the verdict on the last counted id's stem; safe for
// concurrent use.
type idVerdicts struct {
	last atomic.Pointer[idVerdict]
}

// idVerdict says what cleanID takes of ids with one stem.
type idVerdict struct {
	stem string
	mode int
}

// The modes of an idVerdict.
const (
	idRejected = iota // no part of the id
	idWhole           // the whole id
	idTail            // the part after the last '/'
)

// apply returns what v takes of id.
func (v *idVerdict) apply(id string) (string, bool) {
	switch v.mode {
	case idWhole:
		return id, true
	case idTail:
		return id[strings.LastIndexByte(id, '/')+1:], true
	}
	return "", false
}

// traceIDOf returns the trace id of the span in r's context, else of a
// valid W3C traceparent header, else "": a trace id is never invented.
func traceIDOf(r *http.Request) string {
	if sc := trace.SpanContextFromContext(r.Context()); sc.HasTraceID() {
		return sc.TraceID().String()
	}
	return traceparentTraceID(canonheader.Value(r.Header, "Traceparent"))
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
