package idempotency

import (
	"context"
	"log/slog"
	"net/http"
	"time"

	"github.com/toolerr/toolerr"
)

// DefaultWindow is how long [DuplicateGuard] remembers a call.
const DefaultWindow = time.Minute

// WithWindow sets how long [DuplicateGuard] blocks a repeat of a call.
// Default: [DefaultWindow] (1 min). Ignored by Middleware.
func WithWindow(d time.Duration) Option {
	return func(c *config) {
		if d > 0 {
			c.window = d
		}
	}
}

// DuplicateGuard returns middleware that blocks an agent from repeating a
// mutating tool call by accident: a call with the same principal (the
// session, see [WithPrincipal]), tool, path and query, and arguments
// (canonical JSON, as [Key] derives, when declared JSON) within the window,
// without an idempotency key, gets DUPLICATE_ACTION (409, conflict, not
// retryable) whose details say when the first call ran, its status and its
// request id. A first call that failed in a way that may pass (408, 409,
// 425, 429, 5xx) is forgotten: the agent was told it may retry. A call that carries
// an idempotency key is left to [Middleware]: sending one is how an agent
// repeats an action on purpose. Anonymous calls (no principal) are not
// guarded, since their callers cannot be told apart, unless
// [SharedAnonymousScope].
//
// The guard shares the [Store] of the idempotency middleware. When the
// store cannot be reached within its deadline ([WithStoreTimeout]) or is
// full, the call goes through, with a log line: the guard is a safety net,
// not a lock. A body over the read limit ([WithMaxBody]) is not compared,
// and goes through. The handler reads the body exactly as sent. store nil
// means a new [MemoryStore].
func DuplicateGuard(store Store, opts ...Option) func(http.Handler) http.Handler {
	if store == nil {
		store = NewMemoryStore()
	}
	cfg := newConfig(opts)
	g := &guard{cfg: cfg, store: bound(store, cfg.storeTimeout)}
	return func(next http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { g.serve(w, r, next) })
	}
}

// guard is one configured DuplicateGuard.
type guard struct {
	cfg   config
	store Store
}

// guardFingerprint marks the guard's records in a store shared with the
// idempotency middleware.
const guardFingerprint = "duplicate-guard"

// serve blocks a repeat, or runs the call and remembers it.
func (g *guard) serve(w http.ResponseWriter, r *http.Request, next http.Handler) {
	if !mutating(r.Method) || r.Header.Get(g.cfg.header) != "" || mcpRequest(r) { // mcp_request.go
		next.ServeHTTP(w, r)
		return
	}
	principal := g.cfg.principal(r)
	if principal == "" && !g.cfg.sharedAnon {
		next.ServeHTTP(w, r) // anonymous callers cannot be told apart
		return
	}
	body, err := readBody(r, g.cfg.maxBody)
	if err != nil {
		next.ServeHTTP(w, r) // too large to compare, or unreadable: not the guard's to judge
		return
	}
	// The arguments in canonical form when they are declared JSON, else as
	// sent; the request target too, so that /items/1 and /items/2 of one
	// route are two calls.
	if canonical, err := Canonicalize(body); err == nil && declaredJSON(r) {
		body = canonical
	}
	key := "dup:" + storeKey(g.cfg.digestKey, principal, g.cfg.tool(r)+"\x00"+r.URL.RequestURI(), string(body))
	c, err := g.store.Claim(r.Context(), key, guardFingerprint, g.cfg.window)
	if err != nil {
		g.cfg.metrics.storeFailed(r.Context(), opClaim, true, err)
		g.cfg.logger.Warn("toolerr: duplicate-action guard skipped: store unavailable", slog.Any("error", err))
		next.ServeHTTP(w, r)
		return
	}
	if !c.Claimed {
		g.block(w, r, c.Existing)
		return
	}
	bg := context.WithoutCancel(r.Context())
	tw := &teeWriter{w: w}
	defer func() {
		if v := recover(); v != nil {
			g.cfg.metrics.storeFailed(bg, opRelease, false, g.store.Release(bg, key, c.Token))
			panic(v)
		}
	}()
	next.ServeHTTP(tw, r)
	first := Response{Status: tw.finalStatus(), Header: http.Header{}}
	if id := toolerr.RequestID(r.Context()); id != "" {
		first.Header.Set("X-Request-Id", id)
	} else if id := w.Header().Get("X-Request-Id"); id != "" {
		first.Header.Set("X-Request-Id", id)
	}
	if passingStatus(first.Status) {
		// The call failed in a way that may pass (a rate limit, a 5xx): the
		// agent was told it may retry, so the retry is no duplicate.
		g.cfg.metrics.storeFailed(bg, opRelease, false, g.store.Release(bg, key, c.Token))
		return
	}
	if err := g.store.Complete(bg, key, c.Token, first, g.cfg.window); err != nil {
		g.cfg.metrics.storeFailed(bg, opComplete, false, err)
		g.cfg.logger.Warn("toolerr: duplicate-action guard could not record a call", slog.Any("error", err))
	}
}

// block answers a repeat with DUPLICATE_ACTION.
func (g *guard) block(w http.ResponseWriter, r *http.Request, first Record) {
	g.cfg.metrics.conflicted(r.Context(), conflictDuplicateAction)
	g.fail(w, r, duplicateAction(g.cfg, first, "an "+g.cfg.header))
}

// duplicateAction is the DUPLICATE_ACTION of a repeat of the call that
// recorded first: when the first call ran (first_call_at,
// first_call_age_ms), how it ended (first_status: its HTTP status,
// "completed" for a tool call, or "in_progress") and its request id
// (first_request_id) when known. key names what the caller sends to
// repeat the action on purpose.
func duplicateAction(cfg config, first Record, key string) *toolerr.Error {
	details := map[string]any{"window_ms": cfg.window.Milliseconds()}
	if !first.CreatedAt.IsZero() {
		details["first_call_at"] = first.CreatedAt.UTC().Format(time.RFC3339Nano)
		details["first_call_age_ms"] = max(cfg.now().Sub(first.CreatedAt).Milliseconds(), 0)
	}
	switch {
	case first.State != Completed || first.Response == nil:
		details["first_status"] = "in_progress"
	case first.Response.Status == 0:
		details["first_status"] = "completed"
	default:
		details["first_status"] = first.Response.Status
	}
	if first.State == Completed && first.Response != nil {
		if id := first.Response.Header.Get("X-Request-Id"); id != "" {
			details["first_request_id"] = id
		}
	}
	return cfg.registry.New(toolerr.CodeDuplicateAction,
		"The same call, with the same arguments, ran moments ago.").
		WithDetails(details).
		WithHint("Read the first call's result before repeating it; to repeat the action on purpose, send " + key + ".")
}

// fail renders e.
func (g *guard) fail(w http.ResponseWriter, r *http.Request, e *toolerr.Error) {
	toolerr.Write(w, r, e, toolerr.WithFormat(g.cfg.format), toolerr.WithRegistry(g.cfg.registry))
}
