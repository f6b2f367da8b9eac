package toolerrmcpgo

import (
	"context"
	"encoding/json"
	"fmt"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/internal/mcpcore"
)

// MetaIdempotencyKey is the _meta member of a tools/call request that
// carries its idempotency key: the same key on every retry of one
// operation, a new one for a new operation. A client that cannot set
// _meta sends the Idempotency-Key header on the POST of the call.
const MetaIdempotencyKey = mcpcore.MetaIdempotencyKey

// MetaReplayed is the _meta member, true, of a result replayed to a retry.
const MetaReplayed = mcpcore.MetaReplayed

// stdioSession is the session id mcp-go's stdio transport gives every
// session, in every process: it names no caller.
const stdioSession = "stdio"

// WithIdempotency makes every tool of the server run at most once per
// idempotency key, and refuses the accidental repeat of a keyless call of
// a mutating tool (DUPLICATE_ACTION), over store (nil: one in-process
// idempotency.MemoryStore per option value; several replicas need a
// shared store, such as idempotency/redisstore) with the options of
// package idempotency (WithRetention, WithLease, WithWait, WithWindow,
// WithStoreTimeout, WithMaxStored, FailOpen, SharedAnonymousScope, …).
// Default: none.
//
//   - The client sends the key in the call's _meta ([MetaIdempotencyKey])
//     or in the Idempotency-Key header of the POST that carries the call.
//     A retry with the key gets the first call's result (content,
//     structuredContent, isError and _meta, as the handler made them)
//     with [MetaReplayed] in _meta, and the handler does not run again.
//     The same key for another tool or other arguments is
//     IDEMPOTENCY_KEY_REUSED; a retry while the first call runs is
//     IDEMPOTENCY_IN_PROGRESS (or waits, idempotency.WithWait).
//   - Keys and the guard are scoped by the caller: the Authorization
//     header of the POST that carried the call (mcp-go has no verified
//     user to read), else the MCP session (server.ClientSessionFromContext:
//     a stateful streamable HTTP session or an SSE session). A keyed call
//     with neither (stateless HTTP without credentials, or stdio, whose
//     one session id mcp-go gives every process) is refused with
//     UNAUTHENTICATED unless idempotency.SharedAnonymousScope, which a
//     server on stdio, with one client, passes. A session scopes keys as
//     well as its id is kept secret: mcp-go's default streamable HTTP
//     mode (neither server.WithStateLess nor server.WithStateful) checks
//     only the form of the session id a client sends, not that the server
//     issued it.
//   - A tool with readOnlyHint true ignores keys. A keyless call is
//     guarded when the tool's hints say it modifies (readOnlyHint false,
//     or a destructiveHint) and not that it is read-only or idempotent;
//     a hint that mcp.NewTool filled in with MCP's default counts as not
//     given, so a tool made with mcp.NewTool is guarded only when it says
//     mcp.WithDestructiveHintAnnotation(false). See the package doc.
//   - What is not kept, so a retry runs again: a result mcp-go produced
//     before the handler ran (arguments server.WithInputSchemaValidation
//     rejected), a panic, a failure that may pass (a retryable error, or
//     one with a status of 408, 409, 425, 429 or 5xx, or a cancellation),
//     an error result the handler built itself, a protocol error (a URL
//     elicitation), a result that asks the client for input, and a result
//     over idempotency.WithMaxStored bytes. A non-retryable failure, such
//     as NOT_FOUND, is replayed like a success.
//   - A store that cannot be reached refuses keyed calls with
//     IDEMPOTENCY_UNAVAILABLE (retryable, nothing ran), unless
//     idempotency.FailOpen; the guard lets calls through.
func WithIdempotency(store idempotency.Store, opts ...idempotency.Option) Option {
	return mcpcore.WithIdempotency(store, opts...)
}

// onceKey is the context key that marks a call [adapter.once] already
// runs at most once.
type onceKey struct{}

// once runs the call req: at most once per idempotency key, or refused as
// an accidental repeat, with [WithIdempotency] (mcpcore.Core.Once); as it
// is without. The result kept for a retry is the one the client got, as
// JSON; a retry gets it back marked [MetaReplayed].
func (a *adapter) once(ctx context.Context, req mcp.CallToolRequest, next server.ToolHandlerFunc) (*mcp.CallToolResult, error) {
	if !a.core.Guards() || ctx.Value(onceKey{}) != nil {
		h := a.run(ctx, req, next)
		return h.res, h.err
	}
	// A second Install's middleware, inside this one, runs the call as it
	// is: the key is this one's to hold.
	ctx = context.WithValue(ctx, onceKey{}, true)
	name := req.Params.Name
	d := a.def(ctx, name)
	oc := mcpcore.OnceCall{
		Call:      a.call(name, d),
		Arguments: rawArguments(&req),
		Session:   sessionID(ctx),
	}
	if d.found {
		oc.Hints = hintsOf(d.tool.Annotations)
	}
	if m := req.Params.Meta; m != nil {
		oc.Meta = m.AdditionalFields
	}
	var h handled
	stored, replayed, f := a.core.Once(ctx, oc, func(ctx context.Context) ([]byte, bool) {
		h = a.run(ctx, req, next)
		if h.err != nil || h.panicked || h.res.NeedsInput() || !a.core.Keep(ctx, h.res.IsError, h.cause) {
			return nil, false
		}
		b, err := json.Marshal(h.res)
		if err != nil {
			return nil, false
		}
		return b, true
	})
	switch {
	case f != nil:
		return result(f, d.structured), nil
	case replayed:
		r, err := replay(stored)
		if err != nil {
			return result(a.core.Failed(ctx, oc.Call, err), d.structured), nil
		}
		return r, nil
	}
	return h.res, h.err
}

// sessionID returns the id of the MCP session of ctx, "" when there is
// none or when it names no caller (stdio's).
func sessionID(ctx context.Context) string {
	s := server.ClientSessionFromContext(ctx)
	if s == nil {
		return ""
	}
	if id := s.SessionID(); id != stdioSession {
		return id
	}
	return ""
}

// replay decodes a stored result, keeping structuredContent and the
// members of _meta as the JSON they were stored as (decoded into Go
// values, a number past 2^53 would change), and marks it [MetaReplayed].
func replay(stored []byte) (*mcp.CallToolResult, error) {
	var r mcp.CallToolResult
	if err := json.Unmarshal(stored, &r); err != nil {
		return nil, fmt.Errorf("toolerrmcpgo: stored result: %w", err)
	}
	var raw struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(stored, &raw); err != nil {
		return nil, fmt.Errorf("toolerrmcpgo: stored result: %w", err)
	}
	fields := make(map[string]any, len(raw.Meta)+1)
	for k, v := range raw.Meta {
		fields[k] = v
	}
	fields[MetaReplayed] = true
	r.Meta = &mcp.Meta{AdditionalFields: fields}
	return &r, nil
}
