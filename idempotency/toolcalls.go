package idempotency

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"log/slog"
	"net/http"
	"strconv"
	"strings"

	"github.com/toolerr/toolerr"
)

// DefaultKeyName is how the errors of [ToolCalls] name the key a client
// sends.
const DefaultKeyName = "idempotency key"

// WithKeyName sets how the errors of [ToolCalls] name the key and where a
// client sends it, as in "send a new " + name; an MCP adapter names the
// _meta member. Default: [DefaultKeyName]. Ignored by [Middleware] and
// [DuplicateGuard], which name their header ([WithHeader]).
func WithKeyName(name string) Option {
	return func(c *config) {
		if name != "" {
			c.keyName = name
		}
	}
}

// ToolCall is one call of a tool, as [ToolCalls] sees it.
type ToolCall struct {
	// Principal is who calls: a tenant, user, credential digest or
	// session. "" is anonymous (see [SharedAnonymousScope]).
	Principal string
	// Tool is the called tool's name.
	Tool string
	// Arguments are the call's arguments as sent (JSON). Empty is {}.
	Arguments []byte
	// Key is the idempotency key the client sent, "" for none.
	Key string
}

// ToolCalls runs tool calls at most once per idempotency key, and blocks
// an accidental repeat of a keyless call of a mutating tool (the
// duplicate guard), for transports where one HTTP request is not one call:
// over MCP's streamable HTTP every JSON-RPC message is a POST with its own
// id, so replaying a POST's response would hand a retry another call's
// answer. ToolCalls works on a call and its result instead, with the
// semantics of [Middleware] and [DuplicateGuard] and the same options
// (those about HTTP requests and headers aside); it may share their
// [Store]. Safe for concurrent use.
type ToolCalls struct {
	k keyed
}

// NewToolCalls returns a ToolCalls over store; nil means a new
// [MemoryStore], which serves one replica only. Options that apply:
// [WithRetention], [WithLease], [WithWait], [WithWindow],
// [WithStoreTimeout], [WithMaxStored], [WithMaxKeyLen], [FailOpen],
// [SharedAnonymousScope], [StoreServerErrors] (through [ToolCalls.Keeps]),
// [WithRegistry], [WithLogger] and [WithKeyName].
func NewToolCalls(store Store, opts ...Option) *ToolCalls {
	if store == nil {
		store = NewMemoryStore()
	}
	cfg := newConfig(opts)
	return &ToolCalls{k: keyed{cfg: cfg, store: bound(store, cfg.storeTimeout)}}
}

// Do runs run for call at most once per key, and returns its result; a
// call that is not run gets a refusal, a *toolerr.Error of the configured
// registry, instead.
//
// With a key (call.Key), the key is scoped by the principal: one caller
// never replays another's result, and a keyed anonymous call is refused
// with UNAUTHENTICATED unless [SharedAnonymousScope]. The fingerprint is
// the tool and its canonical arguments ([Canonicalize]: member order,
// whitespace and 1 vs 1.0 do not matter; numbers that differ anywhere,
// even past 2^53, do). Then:
//
//   - the first call claims the key (with a lease and a fencing token,
//     [WithLease]), runs, and its result is stored for the retention
//     ([WithRetention]) when run says to keep it;
//   - a retry gets the stored result back, byte for byte, with replayed
//     true, and run is not called;
//   - a retry while the first call runs waits for its result
//     ([WithWait]), or gets IDEMPOTENCY_IN_PROGRESS (retryable, with a
//     retry_after);
//   - the same key with another tool or other arguments is
//     IDEMPOTENCY_KEY_REUSED (not retryable), whose details say which of
//     the two differs, never their values;
//   - a key that is not 1 to [WithMaxKeyLen] printable ASCII characters
//     is VALIDATION_FAILED;
//   - a result run does not keep (keep false: a failure that may pass on
//     retry, a panic, an interrupted call), a result over [WithMaxStored]
//     bytes (with a log line), and a run that panics (the panic goes on)
//     release the key, so a retry runs again: it does not get the result
//     of the first run;
//   - a store that cannot be reached within [WithStoreTimeout] gives
//     IDEMPOTENCY_UNAVAILABLE (retryable; nothing ran), or runs the call
//     without a key with [FailOpen]; a store full of calls in flight
//     ([ErrStoreFull]) always gives IDEMPOTENCY_UNAVAILABLE.
//
// Without a key and with guard set (the tool mutates), the duplicate
// guard: a call with the same principal, tool and canonical arguments as
// one that ran within the window ([WithWindow]) gets DUPLICATE_ACTION
// (conflict, not retryable) whose details say when the first call ran,
// whether it completed, and its request id (toolerr.RequestID of its
// context) when known. A first call whose result run did not keep is
// forgotten: the client was told it may retry. Anonymous calls are not
// guarded unless [SharedAnonymousScope]. A store that cannot be reached
// or is full lets the call through, with a log line: the guard is a
// safety net, not a lock.
//
// Without a key and without guard, Do calls run and returns its result.
//
// The store's bookkeeping after run outlives ctx: a result is kept even
// when the caller went away meanwhile, if run says to keep it.
func (tc *ToolCalls) Do(ctx context.Context, call ToolCall, guard bool, run func(ctx context.Context) (result []byte, keep bool)) (result []byte, replayed bool, refusal *toolerr.Error) {
	switch {
	case call.Key != "":
		return tc.keyed(ctx, call, run)
	case guard:
		result, refusal = tc.guarded(ctx, call, run)
		return result, false, refusal
	}
	result, _ = run(ctx)
	return result, false, nil
}

// Keeps reports whether the result of a call that failed with e (nil: it
// succeeded) is worth keeping, as [Middleware] decides for an HTTP
// status: not when e may pass on retry (retryable, or a status of 408,
// 409, 425, 429 or 500 and above, the latter unless [StoreServerErrors]),
// nor when it is a cancellation. Adapters use it to say keep to [Do].
func (tc *ToolCalls) Keeps(e *toolerr.Error) bool {
	if e == nil {
		return true
	}
	if e.Retryable || e.Code == toolerr.CodeCancelled {
		return false
	}
	return tc.k.storable(e.Status)
}

// Header returns the HTTP header that carries a key ([WithHeader]), for
// adapters whose calls may arrive over HTTP.
func (tc *ToolCalls) Header() string { return tc.k.cfg.header }

// keyed runs a call that carries a key.
func (tc *ToolCalls) keyed(ctx context.Context, call ToolCall, run func(context.Context) ([]byte, bool)) ([]byte, bool, *toolerr.Error) {
	cfg := &tc.k.cfg
	if !validKey(call.Key, cfg.maxKeyLen) {
		return nil, false, cfg.registry.New(toolerr.CodeValidationFailed,
			"The "+cfg.keyName+" must be 1 to "+strconv.Itoa(cfg.maxKeyLen)+" printable ASCII characters.").
			WithHint("Send one key per operation, such as a UUID, and the same key on every retry of it.")
	}
	if call.Principal == "" && !cfg.sharedAnon {
		cfg.logger.Warn("toolerr: keyed tool call without a principal refused; SharedAnonymousScope serves a transport whose callers are all one")
		return nil, false, cfg.registry.New(toolerr.CodeUnauthenticated,
			"An "+cfg.keyName+" is scoped to its caller, and this call does not say who the caller is.").
			WithHint("Call with your credentials or within your session, then retry with the same " + cfg.keyName + ".")
	}
	key := "call:" + storeKey(cfg.digestKey, call.Principal, "", call.Key)
	fp := callFingerprint(cfg.digestKey, call.Tool, call.Arguments)
	s := tc.k.settle(ctx, key, fp)
	switch {
	case s.err != nil:
		return tc.storeDown(ctx, s.err, run)
	case s.claimed:
		return tc.execute(ctx, key, s.token, run), false, nil
	case s.found.Fingerprint != fp:
		cfg.metrics.conflicted(ctx, conflictPayloadMismatch)
		what := differs(s.found.Fingerprint, fp)
		return nil, false, cfg.registry.New(toolerr.CodeIdempotencyKeyReused,
			"This "+cfg.keyName+" was first used with "+differText(what)+".").
			WithDetails(map[string]any{"differs": what}).
			WithHint("Use a new " + cfg.keyName + " for a new operation; reuse a key only to retry the same call unchanged.")
	case s.found.State == Completed && s.found.Response != nil:
		cfg.metrics.replayed(ctx)
		return append([]byte(nil), s.found.Response.Body...), true, nil
	}
	cfg.metrics.conflicted(ctx, conflictInFlight)
	return nil, false, cfg.registry.New(toolerr.CodeIdempotencyInProgress,
		"A call with this "+cfg.keyName+" is still running.").
		WithRetryAfter(inProgressMinWait).
		WithHint("Wait a few seconds, then send the identical call with the same " + cfg.keyName + " to get its result.")
}

// execute runs the call that holds the claim of key and stores its
// result, or releases the key when the result is not to be replayed.
func (tc *ToolCalls) execute(ctx context.Context, key string, token uint64, run func(context.Context) ([]byte, bool)) []byte {
	bg := context.WithoutCancel(ctx) // the bookkeeping outlives a caller that left
	defer func() {
		if v := recover(); v != nil {
			tc.k.release(bg, key, token, "the tool panicked")
			panic(v)
		}
	}()
	result, keep := run(ctx)
	switch {
	case !keep:
		tc.k.release(bg, key, token, "")
	case len(result) > tc.k.cfg.maxStored:
		tc.k.release(bg, key, token, "the tool's result is larger than the storable limit; a retry will run again")
	default:
		tc.k.complete(bg, key, token, Response{Body: result})
	}
	return result
}

// storeDown answers when the store cannot be reached or is full: the call
// is refused, or runs without a key by [FailOpen] when the store is
// unreachable (not full).
func (tc *ToolCalls) storeDown(ctx context.Context, err error, run func(context.Context) ([]byte, bool)) ([]byte, bool, *toolerr.Error) {
	cfg := &tc.k.cfg
	if ctx.Err() != nil {
		return nil, false, cfg.registry.New(toolerr.CodeCancelled, "").WithCause(ctx.Err())
	}
	open := cfg.failOpen && !errors.Is(err, ErrStoreFull)
	cfg.metrics.storeFailed(ctx, opClaim, open, err)
	cfg.logger.Error("toolerr: idempotency store unavailable", slog.Any("error", err), slog.Bool("fail_open", open))
	if open {
		result, _ := run(ctx)
		return result, false, nil
	}
	return nil, false, cfg.registry.New(toolerr.CodeIdempotencyUnavailable, "").
		WithCause(err).
		WithRetryAfter(inProgressMinWait).
		WithHint("Retry later with the same " + cfg.keyName + "; nothing was executed.")
}

// guarded runs a keyless call of a mutating tool unless the same call ran
// within the window.
func (tc *ToolCalls) guarded(ctx context.Context, call ToolCall, run func(context.Context) ([]byte, bool)) ([]byte, *toolerr.Error) {
	cfg := &tc.k.cfg
	if call.Principal == "" && !cfg.sharedAnon {
		result, _ := run(ctx) // anonymous callers cannot be told apart
		return result, nil
	}
	key := "calldup:" + storeKey(cfg.digestKey, call.Principal, call.Tool, string(canonicalArguments(call.Arguments)))
	c, err := tc.k.store.Claim(ctx, key, guardFingerprint, cfg.window)
	if err != nil {
		cfg.metrics.storeFailed(ctx, opClaim, true, err)
		cfg.logger.Warn("toolerr: duplicate-action guard skipped: store unavailable", slog.Any("error", err))
		result, _ := run(ctx)
		return result, nil
	}
	if !c.Claimed {
		cfg.metrics.conflicted(ctx, conflictDuplicateAction)
		return nil, duplicateAction(*cfg, c.Existing, "a new "+cfg.keyName)
	}
	bg := context.WithoutCancel(ctx)
	defer func() {
		if v := recover(); v != nil {
			cfg.metrics.storeFailed(bg, opRelease, false, tc.k.store.Release(bg, key, c.Token))
			panic(v)
		}
	}()
	result, keep := run(ctx)
	if !keep {
		// The call failed in a way that may pass: the client was told it
		// may retry, so the retry is no duplicate.
		cfg.metrics.storeFailed(bg, opRelease, false, tc.k.store.Release(bg, key, c.Token))
		return result, nil
	}
	first := Response{Header: http.Header{}}
	if id := toolerr.RequestID(ctx); id != "" {
		first.Header.Set("X-Request-Id", id)
	}
	if err := tc.k.store.Complete(bg, key, c.Token, first, cfg.window); err != nil {
		cfg.metrics.storeFailed(bg, opComplete, false, err)
		cfg.logger.Warn("toolerr: duplicate-action guard could not record a call", slog.Any("error", err))
	}
	return result, nil
}

// canonicalArguments returns args in canonical form ([Canonicalize]), {}
// when empty, or as sent when they are not canonical JSON (duplicate
// member names, say): two calls compare equal only when their arguments
// are.
func canonicalArguments(args []byte) []byte {
	if len(args) == 0 {
		return []byte("{}")
	}
	if c, err := Canonicalize(args); err == nil {
		return c
	}
	return args
}

// callFingerprint is the fingerprint of a keyed tool call: the digests of
// its tool and of its canonical arguments, apart, so that a reused key
// can be told to differ by one or the other.
func callFingerprint(key []byte, tool string, args []byte) string {
	t := sha256.Sum256([]byte(tool))
	return "tool:" + hex.EncodeToString(t[:]) + ",arguments:" + fingerprintOf(key, "tools/call", "", canonicalArguments(args), false)
}

// differs names what differs between two call fingerprints: "tool",
// "arguments" or "tool_and_arguments".
func differs(first, now string) string {
	ft, fa, _ := strings.Cut(first, ",")
	nt, na, _ := strings.Cut(now, ",")
	switch {
	case ft != nt && fa != na:
		return "tool_and_arguments"
	case ft != nt:
		return "tool"
	}
	return "arguments"
}

// differText says what [differs] names, in the detail of
// IDEMPOTENCY_KEY_REUSED.
func differText(what string) string {
	switch what {
	case "tool":
		return "another tool"
	case "tool_and_arguments":
		return "another tool and other arguments"
	}
	return "other arguments"
}
