package middleware

import (
	"bytes"
	"net/http"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/translate"
)

// Attribution: a captured response blames a downstream only with evidence
// of one. Evidence is a vendor or gateway translator that recognised the
// response (by its headers or body shape), or a vendor the handler named
// with toolerr.RecordVendor. A body read only as a common format
// (problem+json, OAuth, plain JSON, text, nothing) is no evidence: the
// service's own handler, router or middleware (chi's Recoverer, Timeout,
// Throttle, http.TimeoutHandler, http.MaxBytesReader) wrote it.

// downstream reports whether the outcome o of a captured response shows a
// downstream behind it.
func downstream(raw *translate.Raw, o classify.Outcome, translated bool) bool {
	if raw.Vendor != "" {
		return true
	}
	return translated && o.Vendor != "" && !translate.GenericVendor(o.Vendor)
}

// netHTTPNotFound is the body http.NotFound writes, the default of
// net/http's ServeMux and of chi for a path no route matches.
const netHTTPNotFound = "404 page not found"

// routeMatched reports whether a route of the service matched r, and
// whether that is known at all. It asks, in turn: a Tool adapter that ran;
// chi's routing context, whose router is asked again (the middleware may
// run before chi routes, mounted with Router.Use; and the pattern chi set
// on r may be a mount's, "/tools/*", whose sub-router found nothing); the
// pattern ServeMux or a framework adapter set on r; and next itself, when
// the middleware wraps a ServeMux or a chi router.
func routeMatched(rec *recorder, r *http.Request, next http.Handler) (matched, known bool) {
	if rec.tool != "" {
		return true, true
	}
	path := r.URL.RawPath
	if path == "" {
		path = r.URL.Path
	}
	if rc := chi.RouteContext(r.Context()); rc != nil && rc.Routes != nil {
		return rc.Routes.Find(chi.NewRouteContext(), r.Method, path) != "", true
	}
	if r.Pattern != "" {
		return true, true
	}
	switch h := next.(type) {
	case chi.Routes:
		return h.Find(chi.NewRouteContext(), r.Method, path) != "", true
	case *http.ServeMux:
		_, pattern := h.Handler(r)
		return pattern != "", true
	}
	return false, false
}

// routerNotFound reports whether a captured 404 is the router's own answer
// to a path no route matches, rather than a handler's "order 42 not
// found". When routing cannot be asked, the body decides: net/http's and
// chi's default answer is exactly [netHTTPNotFound].
func routerNotFound(rec *recorder, r *http.Request, next http.Handler) bool {
	if rec.status != http.StatusNotFound {
		return false
	}
	if matched, known := routeMatched(rec, r, next); known {
		return !matched
	}
	return string(bytes.TrimSpace(rec.body)) == netHTTPNotFound
}

// localError builds the error of a captured response the service produced
// itself: the local rows of the status table decide (no UPSTREAM_* code,
// no upstream member), a 4xx keeps the status the application chose, the
// router's 404 is TOOL_NOT_FOUND and a 405 lists its allowed methods.
func (m *handler) localError(rec *recorder, r *http.Request, next http.Handler, o classify.Outcome) *toolerr.Error {
	if routerNotFound(rec, r, next) {
		return m.cfg.registry.New(toolerr.CodeToolNotFound, "")
	}
	o.Local = true
	if rec.status >= 500 {
		// The body of the service's own 5xx is its internals
		// (http.Error(w, err.Error(), 500)): the log has it, not the agent.
		o.Message, o.Field, o.Details = "", "", nil
	}
	if o.Status == http.StatusServiceUnavailable && mentionsTimeout(rec.body) {
		// http.TimeoutHandler's 503: a timeout, not load shedding.
		o.Status = http.StatusGatewayTimeout
	}
	d := m.cfg.classifier.Decide(o)
	e := m.cfg.classifier.Build(d, o)
	if rec.status < 500 {
		e = e.WithStatus(rec.status)
	}
	if e.Code == toolerr.CodeMethodNotAllowed {
		if methods := allowedMethods(rec.w.Header()); len(methods) > 0 {
			rec.allow = strings.Join(methods, ", ")
			e = e.WithAllowedValues(methods)
		}
	}
	return e
}

// mentionsTimeout reports whether a short body says it is a timeout, as
// http.TimeoutHandler's default page ("<title>Timeout</title>") and most
// custom timeout messages do.
func mentionsTimeout(body []byte) bool {
	if len(body) > 512 {
		return false
	}
	b := bytes.ToLower(body)
	return bytes.Contains(b, []byte("timeout")) || bytes.Contains(b, []byte("timed out"))
}

// allowedMethods returns the methods of the response's Allow header, each
// an HTTP token, or nil when any is not: a header the handler set is
// untrusted text.
func allowedMethods(h http.Header) []string {
	var out []string
	for _, v := range h.Values("Allow") {
		for _, m := range strings.Split(v, ",") {
			m = strings.TrimSpace(m)
			if m == "" {
				continue
			}
			if !methodToken(m) || len(out) == 16 {
				return nil
			}
			out = append(out, m)
		}
	}
	return out
}

// methodToken reports whether s is a plausible method name: 1 to 20
// upper-case letters or hyphens.
func methodToken(s string) bool {
	if len(s) > 20 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; (c < 'A' || c > 'Z') && c != '-' {
			return false
		}
	}
	return true
}
