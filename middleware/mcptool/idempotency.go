package mcptool

import (
	"context"
	"encoding/json"
	"fmt"
	"sync/atomic"

	"github.com/modelcontextprotocol/go-sdk/mcp"

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

// WithIdempotency makes a tool registered with [AddTool] run at most once
// per idempotency key, and refuses the accidental repeat of a keyless call
// of a mutating tool (DUPLICATE_ACTION), over store (nil: one in-process
// idempotency.MemoryStore per option value; several replicas need a
// shared store, such as idempotency/redisstore) with the options of
// package idempotency. Pass the same option, or the same store, to every
// tool. Default: none.
//
// Only [AddTool] applies it: it knows the tool's annotations, and it sees
// the final result of each call, which it stores. [Wrap] and [Middleware]
// ignore it ([Wrap] with a log line).
//
//   - The client sends the key in the call's _meta ([MetaIdempotencyKey])
//     or in the Idempotency-Key header of the POST that carries the call.
//     A retry with the key gets the first call's result (content,
//     structuredContent, isError, as the server sent them) with
//     [MetaReplayed] in _meta, and the handler does not run again. The
//     same key for another tool or other arguments is
//     IDEMPOTENCY_KEY_REUSED; a retry while the first call runs is
//     IDEMPOTENCY_IN_PROGRESS (or waits, idempotency.WithWait).
//   - Keys and the guard are scoped by the caller: the user of a verified
//     bearer token (auth.TokenInfo.UserID), else the Authorization header
//     of the POST, else the MCP session. A keyed call with none of these
//     (stdio, or stateless HTTP without credentials) is refused with
//     UNAUTHENTICATED unless idempotency.SharedAnonymousScope, which a
//     server on stdio, with one client, passes.
//   - A tool with readOnlyHint true ignores keys. A keyless call is
//     guarded when the tool declares a destructiveHint (true or false) and
//     neither readOnlyHint nor idempotentHint: in this SDK readOnlyHint
//     false cannot be told from no hint, and a read tool without
//     annotations must never be refused for asking twice.
//   - What is not kept, so a retry runs again: a result the SDK produced
//     before the handler ran (arguments it rejected), a panic, a failure
//     that may pass (a retryable error, or one with a status of 408, 409,
//     425, 429 or 5xx, or a cancellation), an error result the handler
//     built itself, a result that asks for input, and a result over
//     idempotency.WithMaxStored bytes. A non-retryable failure, such as
//     NOT_FOUND, is replayed like a success to a retry with its key; the
//     guard forgets every keyless call that failed: it did not act, so its
//     repeat runs and gets the true cause again.
//   - A store that cannot be reached refuses keyed calls with
//     IDEMPOTENCY_UNAVAILABLE (retryable, nothing ran), unless
//     idempotency.FailOpen; the guard lets calls through.
func WithIdempotency(store idempotency.Store, opts ...idempotency.Option) Option {
	return mcpcore.WithIdempotency(store, opts...)
}

// hints returns what the annotations a say of the tool's effects. The SDK's
// readOnlyHint and idempotentHint are plain booleans, so false is no hint.
func hints(a *mcp.ToolAnnotations) mcpcore.Hints {
	if a == nil {
		return mcpcore.Hints{}
	}
	yes := true
	h := mcpcore.Hints{}
	if a.DestructiveHint != nil {
		destructive := *a.DestructiveHint
		h.Destructive = &destructive
	}
	if a.ReadOnlyHint {
		h.ReadOnly = &yes
	}
	if a.IdempotentHint {
		h.Idempotent = &yes
	}
	return h
}

// onceKey is the context key of a call's [onceSlot].
type onceKey struct{}

// onceSlot is what the wrapped handler of a call under [config.once] tells
// it: that the handler ran (the SDK did not answer first), and whether it
// panicked.
type onceSlot struct {
	ran, panicked atomic.Bool
}

// slot returns the onceSlot of ctx, or nil.
func slot(ctx context.Context) *onceSlot {
	s, _ := ctx.Value(onceKey{}).(*onceSlot)
	return s
}

// once returns the receiving middleware that runs the calls of the tool t
// at most once ([WithIdempotency]). structured says whether t's failures
// carry their problem object as structuredContent. The newest such
// middleware of a tool name handles its calls: a tool added again under
// the same name is served by its own annotations.
func (c *config) once(t *mcp.Tool, structured bool) mcp.Middleware {
	name, h := t.Name, hints(t.Annotations)
	idempotent := c.Idempotent || t.Annotations != nil && t.Annotations.IdempotentHint
	return func(next mcp.MethodHandler) mcp.MethodHandler {
		return func(ctx context.Context, method string, req mcp.Request) (mcp.Result, error) {
			call, ok := req.(*mcp.CallToolRequest)
			if !ok || call.Params == nil || call.Params.Name != name || slot(ctx) != nil {
				return next(ctx, method, req)
			}
			ctx = c.callContext(ctx, call) // call.go
			if c.ClaimCount(ctx) {
				c.CountCall(name) // else the server's Middleware counts it
			}
			s := &onceSlot{}
			ctx = context.WithValue(ctx, onceKey{}, s)
			var (
				res mcp.Result
				err error
			)
			oc := mcpcore.OnceCall{
				Call:      mcpcore.Call{Tool: name, Idempotent: idempotent, ReadOnly: readOnlyTool(t.Annotations)},
				Hints:     h,
				Arguments: call.Params.Arguments,
				Meta:      call.Params.Meta,
				User:      user(call),
			}
			if call.Session != nil {
				oc.Session = call.Session.ID()
			}
			stored, replayed, f := c.Once(ctx, oc, func(ctx context.Context) ([]byte, bool) {
				res, err = next(ctx, method, req)
				r, ok := res.(*mcp.CallToolResult)
				if err != nil || !ok || r == nil {
					return nil, false
				}
				res = c.completed(ctx, call, r, next) // middleware.go
				r, _ = res.(*mcp.CallToolResult)
				if !s.ran.Load() || s.panicked.Load() || r.InputRequests != nil || !c.Keep(ctx, r.IsError, r.GetError()) {
					return nil, false
				}
				b, mErr := json.Marshal(r)
				if mErr != nil {
					return nil, false
				}
				return b, true
			})
			switch {
			case f != nil:
				return result(f, structured), nil
			case replayed:
				r, rErr := replay(stored)
				if rErr != nil {
					return result(c.Failed(ctx, oc.Call, rErr), structured), nil
				}
				return r, nil
			}
			return res, err
		}
	}
}

// user returns the user of the call's verified bearer token, "" when none.
func user(call *mcp.CallToolRequest) string {
	if call.Extra == nil || call.Extra.TokenInfo == nil {
		return ""
	}
	return call.Extra.TokenInfo.UserID
}

// replay decodes a stored result, keeping structuredContent and the
// members of _meta as the JSON they were sent as (decoded into Go values,
// a number past 2^53 would change), and marks it [MetaReplayed].
func replay(stored []byte) (*mcp.CallToolResult, error) {
	var r mcp.CallToolResult
	if err := json.Unmarshal(stored, &r); err != nil {
		return nil, fmt.Errorf("mcptool: stored result: %w", err)
	}
	var raw struct {
		Meta       map[string]json.RawMessage `json:"_meta"`
		Structured json.RawMessage            `json:"structuredContent"`
	}
	if err := json.Unmarshal(stored, &raw); err != nil {
		return nil, fmt.Errorf("mcptool: stored result: %w", err)
	}
	if raw.Structured != nil {
		r.StructuredContent = raw.Structured
	}
	r.Meta = make(mcp.Meta, len(raw.Meta)+1)
	for k, v := range raw.Meta {
		r.Meta[k] = v
	}
	r.Meta[MetaReplayed] = true
	return &r, nil
}
