package mcpcore

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"sync/atomic"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
)

// MetaIdempotencyKey is the _meta member of a tools/call request that
// carries the call's idempotency key (a string of 1 to 255 printable
// ASCII characters, such as a UUID): the same key on every retry of one
// operation, a new key for a new operation.
const MetaIdempotencyKey = "io.toolerr/idempotency-key"

// MetaReplayed is the _meta member, true, of a result replayed to a retry
// with the key of a call that already ran, as Idempotent-Replayed is for
// HTTP.
const MetaReplayed = "io.toolerr/idempotent-replayed"

// keyName is how refusals name the key and where a client sends it.
const keyName = `idempotency key (_meta "` + MetaIdempotencyKey + `")`

// WithIdempotency runs the calls of mutating tools at most once per
// idempotency key, and blocks the accidental repeat of a keyless call of
// a mutating tool, over store (nil: one in-process
// idempotency.MemoryStore, made when the option is, so that every core
// configured with this option value shares it) with the options of
// package idempotency (WithRetention, WithLease, WithWait, WithWindow,
// WithStoreTimeout, WithMaxStored, FailOpen, SharedAnonymousScope, …).
// See [Core.Once]. Pass one store to every tool: a key is scoped by its
// caller, not by tool, so that a key reused for another tool is refused.
// Default: none, no idempotency and no duplicate guard.
func WithIdempotency(store idempotency.Store, opts ...idempotency.Option) Option {
	if store == nil {
		store = idempotency.NewMemoryStore()
	}
	opts = append([]idempotency.Option(nil), opts...)
	return func(c *Core) {
		c.onceStore, c.onceOpts = store, opts
	}
}

// newOnce builds the core's idempotency.ToolCalls, when configured: its
// errors from the core's registry, its log lines to the core's logger,
// unless the options say otherwise.
func (c *Core) newOnce() {
	if c.onceStore == nil {
		return
	}
	opts := append([]idempotency.Option{
		idempotency.WithRegistry(c.Registry), idempotency.WithLogger(c.Logger), idempotency.WithKeyName(keyName),
	}, c.onceOpts...)
	c.once = idempotency.NewToolCalls(c.onceStore, opts...)
}

// Idempotency reports whether the core runs calls at most once
// ([WithIdempotency]).
func (c *Core) Idempotency() bool { return c.once != nil }

// Hints are what a tool's MCP annotations say of its effects; nil is a
// hint the tool's author did not give. An adapter passes nil for a value
// its library fills in by default, when it can tell.
type Hints struct {
	// ReadOnly is readOnlyHint: the tool does not modify its environment.
	ReadOnly *bool
	// Destructive is destructiveHint: the tool may destroy or overwrite,
	// rather than only add.
	Destructive *bool
	// Idempotent is idempotentHint: calling it again with the same
	// arguments has no further effect.
	Idempotent *bool
}

// Mutating reports whether a tool with these hints is guarded against an
// accidental repeat: when it is not declared read-only or idempotent, and
// it declares itself a tool that modifies, by readOnlyHint false or by a
// destructiveHint (true or false, which only a modifying tool has). A
// tool without annotations, or whose annotations say nothing of its
// effects, is not guarded: a read tool is never refused for asking twice.
func (h Hints) Mutating() bool {
	if isTrue(h.ReadOnly) || isTrue(h.Idempotent) {
		return false
	}
	return h.ReadOnly != nil || h.Destructive != nil
}

// isTrue reports whether b is set and true.
func isTrue(b *bool) bool { return b != nil && *b }

// OnceCall is what [Core.Once] knows of a tool call.
type OnceCall struct {
	Call
	// Hints are the tool's annotations.
	Hints Hints
	// Arguments are the call's arguments as sent.
	Arguments json.RawMessage
	// Meta is the call's _meta, where a client puts its key
	// ([MetaIdempotencyKey]).
	Meta map[string]any
	// User is the caller the transport authenticated (the user of a
	// verified bearer token), "" when none.
	User string
	// Session is the MCP session id, "" when none (stdio, stateless HTTP).
	Session string
}

// Once runs run for call at most once per idempotency key, or blocks it as
// an accidental repeat, by idempotency.ToolCalls.Do; ctx is the call's
// context ([Core.CallContext]). It returns the result run returned, or
// the stored result of the call that ran with the same key (replayed
// true: the adapter adds [MetaReplayed]), or the failure that refuses
// the call (recorded like every failure).
//
//   - The key is the call's _meta [MetaIdempotencyKey], or the
//     Idempotency-Key header of the HTTP request that carried the call
//     (idempotency.WithHeader names another); one that is not a string,
//     a header sent twice, or a _meta key and a header that differ are
//     VALIDATION_FAILED.
//   - The caller (whom keys and the guard are scoped by) is call.User,
//     else a SHA-256 of the Authorization header of the HTTP request that
//     carried the call, else the MCP session, else nobody: an anonymous
//     keyed call is refused with UNAUTHENTICATED unless
//     idempotency.SharedAnonymousScope, which a server on stdio, whose one
//     client is every caller, passes.
//   - A read-only tool (readOnlyHint true) runs as it is: its key is not
//     needed. A keyless call of a tool that is not [Hints.Mutating], or
//     that is idempotent, runs as it is too.
//   - A keyless call that failed is forgotten by the duplicate guard, as
//     one whose result is not kept is: a call that failed did not act, so
//     its repeat is no duplicate action. It runs, and fails again with its
//     true cause or passes, where DUPLICATE_ACTION would tell the model
//     that the first call completed. A keyed call that failed in a way
//     that would recur is kept and replayed: the replay is that failure.
//
// run says whether its result is kept, by [Core.Keep] under the context
// run gets (which is how Once learns that a result reports a failure).
// Without [WithIdempotency], Once calls run. With [WithThrashGuard], a call
// that keeps failing the same way is refused before any of this
// (REPEATED_FAILURE), and how each call ended is counted.
func (c *Core) Once(ctx context.Context, call OnceCall, run func(ctx context.Context) (result []byte, keep bool)) (result []byte, replayed bool, f *Failure) {
	if c.thrash != nil {
		return c.guardThrash(ctx, call, run) // thrash.go
	}
	return c.runOnce(ctx, call, run)
}

// runOnce is [Core.Once] without the thrash guard.
func (c *Core) runOnce(ctx context.Context, call OnceCall, run func(ctx context.Context) (result []byte, keep bool)) (result []byte, replayed bool, f *Failure) {
	if c.once == nil || isTrue(call.Hints.ReadOnly) {
		result, _ = run(ctx)
		return result, false, nil
	}
	key, refusal := c.idempotencyKey(ctx, call.Meta)
	if refusal == nil {
		tc := idempotency.ToolCall{Principal: principal(ctx, call), Tool: call.Tool, Arguments: call.Arguments, Key: key}
		guard := call.Hints.Mutating() && !call.Idempotent
		if key == "" && guard {
			ctx, run = forgetFailures(ctx, run)
		}
		result, replayed, refusal = c.once.Do(ctx, tc, guard, run)
		if refusal == nil {
			return result, replayed, nil
		}
	}
	return nil, false, c.Rejected(ctx, call.Call, refusal)
}

// outcomeKey is the context key of a call's [outcome].
type outcomeKey struct{}

// outcome is what [Core.Keep] notes of the result of a call that
// [Core.Once] runs: that it reports a failure.
type outcome struct{ failed atomic.Bool }

// forgetFailures returns the context to run a guarded keyless call under,
// and run made to keep no result that reports a failure: the duplicate
// guard then forgets the call.
func forgetFailures(ctx context.Context, run func(ctx context.Context) ([]byte, bool)) (context.Context, func(ctx context.Context) ([]byte, bool)) {
	o := &outcome{}
	return context.WithValue(ctx, outcomeKey{}, o), func(ctx context.Context) ([]byte, bool) {
		result, keep := run(ctx)
		return result, keep && !o.failed.Load()
	}
}

// Keep reports whether the result of a call that [Core.Once] ran is kept:
// stored and replayed to a retry with its key, and remembered by the
// duplicate guard. isError says the result reports a failure; cause is
// the Go error behind it, when the adapter has one. A success is kept,
// also when the caller went away meanwhile. A failure is kept only when
// it is a toolerr error that would fail the same way again (not retryable,
// not a status of 408, 409, 425, 429 or 5xx unless
// idempotency.StoreServerErrors, not a cancellation) and the call was not
// interrupted: an error result a handler built itself says nothing of
// that, so a retry runs again, as it would without toolerr. ctx is the
// context run got: Keep notes a failure there, so that the duplicate
// guard forgets a keyless call that failed (see [Core.Once]).
func (c *Core) Keep(ctx context.Context, isError bool, cause error) bool {
	noteOutcome(ctx, isError, cause) // thrash.go
	if !isError {
		return true
	}
	if o, ok := ctx.Value(outcomeKey{}).(*outcome); ok {
		o.failed.Store(true)
	}
	e, ok := toolerr.From(cause)
	if !ok || ctx.Err() != nil || c.once == nil {
		return false
	}
	return c.once.Keeps(e)
}

// idempotencyKey returns the key of the call of ctx, "" for none.
func (c *Core) idempotencyKey(ctx context.Context, meta map[string]any) (string, *toolerr.Error) {
	invalid := func(detail string) (string, *toolerr.Error) {
		return "", c.Registry.New(toolerr.CodeValidationFailed, detail).
			WithHint("Send one " + keyName + " per operation, such as a UUID, and the same key on every retry of it.")
	}
	var fromMeta string
	if v, ok := meta[MetaIdempotencyKey]; ok {
		s, isString := v.(string)
		if !isString || s == "" {
			return invalid("The " + keyName + " must be a non-empty string.")
		}
		fromMeta = s
	}
	var fromHeader string
	if h := callHeader(ctx); h != nil {
		name := c.once.Header()
		switch vs := h.Values(name); {
		case len(vs) > 1:
			return invalid("The " + name + " header must be sent once.")
		case len(vs) == 1 && vs[0] == "":
			return invalid("The " + name + " header must not be empty.")
		case len(vs) == 1:
			fromHeader = vs[0]
		}
	}
	if fromMeta != "" && fromHeader != "" && fromMeta != fromHeader {
		return invalid("The call carries two different idempotency keys, in _meta and in the " + c.once.Header() + " header.")
	}
	if fromMeta != "" {
		return fromMeta, nil
	}
	return fromHeader, nil
}

// principal returns whom the call of ctx is scoped to: the authenticated
// user, else a digest of the Authorization header of the HTTP request that
// carried it, else the session; "" when none is known.
func principal(ctx context.Context, call OnceCall) string {
	if call.User != "" {
		return "user:" + call.User
	}
	if h := callHeader(ctx); h != nil {
		if auth := h.Get("Authorization"); auth != "" {
			sum := sha256.Sum256([]byte(auth))
			return "authorization:" + hex.EncodeToString(sum[:])
		}
	}
	if call.Session != "" {
		return "session:" + call.Session
	}
	return ""
}
