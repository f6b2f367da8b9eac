package idempotency

import (
	"context"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"time"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/reqscope"
)

// Middleware returns the Idempotency-Key middleware for the mutating
// methods (POST, PUT, PATCH, DELETE), with the semantics of the IETF
// Idempotency-Key draft and Stripe's API:
//
//   - a key is scoped by the request's principal and tool, so one tenant
//     never replays another's response; a keyed request without a
//     principal is UNAUTHENTICATED (401) unless [SharedAnonymousScope]
//     (see [WithPrincipal]);
//   - the first request with a key claims it atomically (with a lease and a
//     fencing token), runs, and its response is stored for the retention;
//   - a retry with the same key gets the stored status, allow-listed
//     headers and body back, with Idempotent-Replayed: true;
//   - the same key with another request (method, tool or body) is
//     IDEMPOTENCY_KEY_REUSED (422), checked before the in-flight check;
//   - the same key while the first request runs is IDEMPOTENCY_IN_PROGRESS
//     (409, retryable, Retry-After), or waits for it ([WithWait]);
//   - nothing is stored when the request is rejected before the handler
//     runs, when the handler panics, or for 408, 409, 425, 429 and 5xx
//     responses (unless [StoreServerErrors]): a retry runs again;
//   - a failure (a status of 400 or more) is stored with the secrets of
//     its body and headers redacted, by the toolerr middleware's
//     sanitizer in front (else a default one), which replaces a failure
//     with its own sanitized error on every answer anyway; a success is
//     stored byte for byte;
//   - a store that cannot be reached, or does not answer within its
//     deadline ([WithStoreTimeout]), gives IDEMPOTENCY_UNAVAILABLE (503,
//     retryable), or lets requests through ([FailOpen]); a store full of
//     requests in flight ([ErrStoreFull]) always gives
//     IDEMPOTENCY_UNAVAILABLE;
//   - the handler reads the request body exactly as sent.
//
// store nil means a new [MemoryStore], which serves one replica only.
func Middleware(store Store, opts ...Option) func(http.Handler) http.Handler {
	if store == nil {
		store = NewMemoryStore()
	}
	cfg := newConfig(opts)
	m := &keyed{cfg: cfg, store: bound(store, cfg.storeTimeout)}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { m.serve(w, r, next) })
	}
}

// keyed is one configured middleware.
type keyed struct {
	cfg   config
	store Store
}

// mutating reports whether requests of method change state.
func mutating(method string) bool {
	switch method {
	case http.MethodPost, http.MethodPut, http.MethodPatch, http.MethodDelete:
		return true
	}
	return false
}

// serve checks the key and the body, then claims, replays or refuses.
func (m *keyed) serve(w http.ResponseWriter, r *http.Request, next http.Handler) {
	if !mutating(r.Method) || mcpRequest(r) { // mcp_request.go
		next.ServeHTTP(w, r)
		return
	}
	keys := r.Header.Values(m.cfg.header)
	if len(keys) == 0 {
		if m.cfg.required {
			m.fail(w, r, m.cfg.registry.New(toolerr.CodeIdempotencyKeyMissing, "This tool needs an "+m.cfg.header+" header.").WithField(m.cfg.header))
			return
		}
		next.ServeHTTP(w, r)
		return
	}
	if len(keys) > 1 || !validKey(keys[0], m.cfg.maxKeyLen) {
		m.fail(w, r, m.cfg.registry.New(toolerr.CodeValidationFailed,
			"The "+m.cfg.header+" header must be one value of 1 to "+strconv.Itoa(m.cfg.maxKeyLen)+" printable ASCII characters.").
			WithField(m.cfg.header).
			WithHint("Send one key per operation, such as a UUID."))
		return
	}
	principal := m.cfg.principal(r)
	if principal == "" && !m.cfg.sharedAnon {
		m.cfg.logger.Warn("toolerr: keyed request without a principal refused; set idempotency.WithPrincipal, or SharedAnonymousScope if all anonymous callers are one")
		m.fail(w, r, m.cfg.registry.New(toolerr.CodeUnauthenticated,
			"An "+m.cfg.header+" is scoped to its caller, and this request does not say who the caller is.").
			WithHint("Send the request with its credentials (an Authorization header), then retry with the same "+m.cfg.header+"."))
		return
	}
	body, err := readBody(r, m.cfg.maxBody)
	switch {
	case err == nil:
	case r.Context().Err() != nil:
		return // the client went away while sending
	case errors.Is(err, errBodyTooLarge) || errors.As(err, new(*http.MaxBytesError)):
		m.fail(w, r, m.cfg.registry.New(toolerr.CodePayloadTooLarge,
			"The body is over the "+strconv.Itoa(m.cfg.maxBody)+" bytes this tool accepts with an idempotency key."))
		return
	default:
		m.fail(w, r, m.cfg.registry.New(toolerr.CodeValidationFailed, "The request body could not be read to its end.").WithCause(err))
		return
	}
	fp := m.cfg.fingerprint(r, body)
	key := storeKey(m.cfg.digestKey, principal, m.cfg.tool(r), keys[0])
	m.claim(w, r, next, key, fp)
}

// claim claims key and runs the request, or answers from what is there.
func (m *keyed) claim(w http.ResponseWriter, r *http.Request, next http.Handler, key, fp string) {
	s := m.settle(r.Context(), key, fp)
	switch {
	case s.err != nil:
		m.storeDown(w, r, next, s.err, !errors.Is(s.err, ErrStoreFull))
	case s.claimed:
		m.execute(w, r, next, key, s.token)
	case s.found.Fingerprint != fp:
		m.cfg.metrics.conflicted(r.Context(), conflictPayloadMismatch)
		m.fail(w, r, m.cfg.registry.New(toolerr.CodeIdempotencyKeyReused,
			"This "+m.cfg.header+" was first used with a different request.").
			WithField(m.cfg.header).
			WithHint("Use a new key for a new operation; reuse a key only to retry the same request unchanged."))
	case s.found.State == Completed && s.found.Response != nil:
		m.cfg.metrics.replayed(r.Context())
		m.replay(w, s.found.Response)
	default:
		m.cfg.metrics.conflicted(r.Context(), conflictInFlight)
		m.fail(w, r, m.cfg.registry.New(toolerr.CodeIdempotencyInProgress,
			"A request with this "+m.cfg.header+" is still running.").WithRetryAfter(inProgressMinWait))
	}
}

// execute runs the request that holds the claim and stores its response,
// or releases the key when the response must not be replayed.
func (m *keyed) execute(w http.ResponseWriter, r *http.Request, next http.Handler, key string, token uint64) {
	bg := context.WithoutCancel(r.Context()) // the bookkeeping outlives a client that left
	tw := &teeWriter{w: w, max: m.cfg.maxStored}
	defer func() {
		if v := recover(); v != nil {
			m.release(bg, key, token, "the handler panicked")
			panic(v)
		}
	}()
	w.Header().Set(retentionHeader, strconv.FormatInt(int64(m.cfg.retention/time.Second), 10))
	next.ServeHTTP(tw, r)
	status := tw.finalStatus()
	switch {
	case tw.hijacked:
		m.release(bg, key, token, "")
	case !tw.wrote && r.Context().Err() != nil:
		m.release(bg, key, token, "") // interrupted before answering: unknown, let a retry run
	case !m.storable(status):
		m.release(bg, key, token, "")
	case tw.overflow:
		m.release(bg, key, token, "the response is larger than the storable limit; a retry will run again")
	default:
		m.complete(bg, key, token, m.stored(r, status, m.replayHeaders(w.Header()), tw.body))
	}
}

// stored returns the response stored for a response of status. A
// failure is not the tool's result: the toolerr middleware in front
// replaces it with a sanitized error, on the first answer and on each
// replay, so its secrets need not, and must not, be kept. A failure's body
// and header values pass through the redact filter of the request scope
// (the middleware's sanitizer: secrets replaced, the shape kept, so that a
// replay is translated as the first answer was), or without a scope
// through the secret stage of a default sanitizer. A success is the tool's
// result and is stored as written, so a retry gets it back byte for byte.
func (m *keyed) stored(r *http.Request, status int, header http.Header, body []byte) Response {
	resp := Response{Status: status, Header: header, Body: body}
	if status < 400 {
		return resp
	}
	for _, vs := range header {
		for i, v := range vs {
			vs[i] = m.redact(r, v)
		}
	}
	if text := m.redact(r, string(body)); text != string(body) {
		resp.Body = []byte(text)
	}
	return resp
}

// redact returns text through the request scope's redact filter, or the
// default sanitizer's secret stage without one.
func (m *keyed) redact(r *http.Request, text string) string {
	if text == "" {
		return text
	}
	out, ok := reqscope.Redact(r.Context(), text)
	if !ok {
		out = m.cfg.redact(text)
	}
	return out
}

// storable reports whether a response of status is replayed to retries.
func (m *keyed) storable(status int) bool {
	if status >= 500 {
		return m.cfg.storeFailures
	}
	return !passingStatus(status)
}

// passingStatus reports whether a response with status is a failure that
// may pass, so the same request may succeed later: 408, 409, 425, 429 and
// every 5xx.
func passingStatus(status int) bool {
	switch status {
	case http.StatusRequestTimeout, http.StatusConflict, http.StatusTooEarly, http.StatusTooManyRequests:
		return true
	}
	return status >= 500
}

// replayHeaders returns the allow-listed headers of h.
func (m *keyed) replayHeaders(h http.Header) http.Header {
	out := http.Header{}
	for _, k := range m.cfg.replayHeaders {
		if v := h.Values(k); len(v) > 0 {
			out[k] = append([]string(nil), v...)
		}
	}
	return out
}

// replay writes a stored response.
func (m *keyed) replay(w http.ResponseWriter, resp *Response) {
	h := w.Header()
	for k, v := range resp.Header {
		h[k] = append([]string(nil), v...)
	}
	h.Set(replayedHeader, "true")
	h.Set(retentionHeader, strconv.FormatInt(int64(m.cfg.retention/time.Second), 10))
	h.Set("Content-Length", strconv.Itoa(len(resp.Body)))
	w.WriteHeader(resp.Status)
	_, _ = w.Write(resp.Body)
}

// storeDown answers when the store cannot be reached or is full: fail
// closed, or open by option when mayOpen.
func (m *keyed) storeDown(w http.ResponseWriter, r *http.Request, next http.Handler, err error, mayOpen bool) {
	if r.Context().Err() != nil {
		return // the client went away; nobody to answer
	}
	open := m.cfg.failOpen && mayOpen
	m.cfg.metrics.storeFailed(r.Context(), opClaim, open, err)
	m.cfg.logger.Error("toolerr: idempotency store unavailable", slog.Any("error", err), slog.Bool("fail_open", open))
	if open {
		next.ServeHTTP(w, r)
		return
	}
	m.fail(w, r, m.cfg.registry.New(toolerr.CodeIdempotencyUnavailable, "").WithCause(err).WithRetryAfter(inProgressMinWait))
}

// fail renders e.
func (m *keyed) fail(w http.ResponseWriter, r *http.Request, e *toolerr.Error) {
	toolerr.Write(w, r, e, toolerr.WithFormat(m.cfg.format), toolerr.WithRegistry(m.cfg.registry))
}
