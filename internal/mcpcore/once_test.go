package mcpcore

import (
	"context"
	"log/slog"
	"net/http"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
)

// TestHintsMutating: only a tool that declares itself modifying, and not
// read-only or idempotent, is guarded.
func TestHintsMutating(t *testing.T) {
	yes, no := true, false
	for _, tt := range []struct {
		name string
		h    Hints
		want bool
	}{
		{"no annotations", Hints{}, false},
		{"readOnlyHint false", Hints{ReadOnly: &no}, true},
		{"destructiveHint true", Hints{Destructive: &yes}, true},
		{"destructiveHint false: additive", Hints{Destructive: &no}, true},
		{"read-only", Hints{ReadOnly: &yes, Destructive: &yes}, false},
		{"idempotent", Hints{ReadOnly: &no, Idempotent: &yes}, false},
		{"idempotentHint false says nothing of effects", Hints{Idempotent: &no}, false},
	} {
		assert.Equal(t, tt.want, tt.h.Mutating(), tt.name)
	}
}

// onceRig is a core with idempotency over a memory store, and a counting
// tool run.
type onceRig struct {
	c    *Core
	runs atomic.Int32
}

func newOnceRig(opts ...idempotency.Option) *onceRig {
	quiet := slog.New(slog.DiscardHandler)
	return &onceRig{c: New(WithLogger(quiet), WithIdempotency(nil, opts...))}
}

// call makes one call of create_label whose POST carried header (nil: not
// over HTTP).
func (r *onceRig) call(header http.Header, call OnceCall) ([]byte, bool, *Failure) {
	ctx := r.c.CallContext(context.Background(), new(int), header)
	if call.Tool == "" {
		call.Tool = "create_label"
	}
	if call.Arguments == nil {
		call.Arguments = []byte(`{"to":"Oslo"}`)
	}
	return r.c.Once(ctx, call, func(context.Context) ([]byte, bool) {
		r.runs.Add(1)
		return []byte(`"done"`), true
	})
}

// TestOnceKeyAndPrincipal: the key comes from _meta or the POST's header,
// and conflicting or malformed keys are refused; the caller is the user,
// else the Authorization header, else the session.
func TestOnceKeyAndPrincipal(t *testing.T) {
	r := newOnceRig()
	auth := http.Header{"Authorization": {"Bearer a"}}
	meta := map[string]any{MetaIdempotencyKey: "k-1"}
	_, replayed, f := r.call(auth, OnceCall{Meta: meta})
	require.Nil(t, f)
	assert.False(t, replayed)
	_, replayed, f = r.call(http.Header{"Authorization": {"Bearer a"}, "Idempotency-Key": {"k-1"}}, OnceCall{})
	require.Nil(t, f)
	assert.True(t, replayed, "the header's key is the _meta key")
	_, replayed, _ = r.call(http.Header{"Authorization": {"Bearer b"}}, OnceCall{Meta: meta})
	assert.False(t, replayed, "another credential is another caller")
	_, replayed, _ = r.call(http.Header{"Authorization": {"Bearer b"}}, OnceCall{Meta: meta, User: "u-1"})
	assert.False(t, replayed, "the verified user wins over the credential")
	_, replayed, _ = r.call(http.Header{"Authorization": {"Bearer c"}}, OnceCall{Meta: meta, User: "u-1"})
	assert.True(t, replayed, "a refreshed token of the same user replays")
	_, replayed, _ = r.call(nil, OnceCall{Meta: meta, Session: "s-1"})
	assert.False(t, replayed)
	_, replayed, _ = r.call(nil, OnceCall{Meta: meta, Session: "s-1"})
	assert.True(t, replayed, "the session scopes calls without credentials")
	assert.EqualValues(t, 4, r.runs.Load())

	for name, tt := range map[string]struct {
		header http.Header
		meta   map[string]any
		code   string
	}{
		"key not a string":    {auth, map[string]any{MetaIdempotencyKey: 7}, toolerr.CodeValidationFailed},
		"empty _meta key":     {auth, map[string]any{MetaIdempotencyKey: ""}, toolerr.CodeValidationFailed},
		"header twice":        {http.Header{"Authorization": {"Bearer a"}, "Idempotency-Key": {"k-1", "k-2"}}, nil, toolerr.CodeValidationFailed},
		"empty header":        {http.Header{"Authorization": {"Bearer a"}, "Idempotency-Key": {""}}, nil, toolerr.CodeValidationFailed},
		"two different keys":  {http.Header{"Authorization": {"Bearer a"}, "Idempotency-Key": {"k-2"}}, meta, toolerr.CodeValidationFailed},
		"key with a space":    {auth, map[string]any{MetaIdempotencyKey: "k 1"}, toolerr.CodeValidationFailed},
		"anonymous keyed":     {nil, meta, toolerr.CodeUnauthenticated},
		"anonymous over HTTP": {http.Header{}, meta, toolerr.CodeUnauthenticated},
	} {
		_, _, f := r.call(tt.header, OnceCall{Meta: tt.meta})
		require.NotNil(t, f, name)
		assert.Equal(t, tt.code, f.Err.Code, name)
		assert.True(t, toolerr.ValidRequestID(f.Err.RequestID), "%s: the refusal carries the call's id", name)
	}
	assert.EqualValues(t, 4, r.runs.Load(), "refused calls never ran")
}

// TestOnceReadOnlyAndUnconfigured: a read-only tool ignores keys and the
// guard; a core without WithIdempotency runs every call.
func TestOnceReadOnlyAndUnconfigured(t *testing.T) {
	yes, no := true, false
	r := newOnceRig()
	for range 2 {
		_, replayed, f := r.call(nil, OnceCall{Meta: map[string]any{MetaIdempotencyKey: "k-1"}, Hints: Hints{ReadOnly: &yes}})
		require.Nil(t, f, "an anonymous read with a key runs")
		assert.False(t, replayed)
	}
	plain := &onceRig{c: New()}
	assert.False(t, plain.c.Idempotency())
	for range 2 {
		_, _, f := plain.call(nil, OnceCall{Session: "s-1", Hints: Hints{ReadOnly: &no}, Meta: map[string]any{MetaIdempotencyKey: 7}})
		require.Nil(t, f)
	}
	assert.EqualValues(t, 2, r.runs.Load())
	assert.EqualValues(t, 2, plain.runs.Load())
}

// TestOnceGuard: the keyless repeat of a mutating, non-idempotent tool's
// call in one session is DUPLICATE_ACTION whose hint names the _meta key.
func TestOnceGuard(t *testing.T) {
	no := false
	r := newOnceRig()
	call := OnceCall{Session: "s-1", Hints: Hints{ReadOnly: &no}}
	_, _, f := r.call(nil, call)
	require.Nil(t, f)
	_, _, f = r.call(nil, call)
	require.NotNil(t, f)
	assert.Equal(t, toolerr.CodeDuplicateAction, f.Err.Code)
	assert.Contains(t, f.Err.Hint, MetaIdempotencyKey)
	assert.Contains(t, f.Line, "DUPLICATE_ACTION")
	call.Idempotent = true
	_, _, f = r.call(nil, call)
	assert.Nil(t, f, "an idempotent tool is not guarded")
	assert.EqualValues(t, 2, r.runs.Load())
}

// TestOnceGuardForgetsFailures: a guarded keyless call whose result Keep
// found a failure is forgotten, even one that would be kept, so its repeat
// runs; a keyed one is kept and replayed. Regression: the guard remembered
// it and refused the repeat as a duplicate of a call that "completed".
func TestOnceGuardForgetsFailures(t *testing.T) {
	no := false
	c := New(WithLogger(slog.New(slog.DiscardHandler)), WithIdempotency(nil))
	notFound := toolerr.Default().New(toolerr.CodeNotFound, "No order ord_8f3a2b91.")
	var runs atomic.Int32
	call := func(call OnceCall, failed bool) *Failure {
		ctx := c.CallContext(context.Background(), new(int), nil)
		call.Tool, call.Session, call.Hints = "cancel_order", "s-1", Hints{ReadOnly: &no}
		_, _, f := c.Once(ctx, call, func(ctx context.Context) ([]byte, bool) {
			runs.Add(1)
			if failed {
				return []byte(`{"isError":true}`), c.Keep(ctx, true, notFound)
			}
			return []byte(`{}`), c.Keep(ctx, false, nil)
		})
		return f
	}
	require.Nil(t, call(OnceCall{Arguments: []byte(`{"order":"a"}`)}, true))
	require.Nil(t, call(OnceCall{Arguments: []byte(`{"order":"a"}`)}, true), "the repeat of a failed call is no duplicate")
	assert.EqualValues(t, 2, runs.Load())

	require.Nil(t, call(OnceCall{Arguments: []byte(`{"order":"b"}`)}, false))
	f := call(OnceCall{Arguments: []byte(`{"order":"b"}`)}, false)
	require.NotNil(t, f)
	assert.Equal(t, toolerr.CodeDuplicateAction, f.Err.Code, "the repeat of a success is")

	keyed := OnceCall{Arguments: []byte(`{"order":"c"}`), Meta: map[string]any{MetaIdempotencyKey: "k-c"}}
	require.Nil(t, call(keyed, true))
	ctx := c.CallContext(context.Background(), new(int), nil)
	keyed.Tool, keyed.Session, keyed.Hints = "cancel_order", "s-1", Hints{ReadOnly: &no}
	_, replayed, f := c.Once(ctx, keyed, func(context.Context) ([]byte, bool) {
		t.Error("a keyed failure that would recur is replayed, not run again")
		return nil, false
	})
	require.Nil(t, f)
	assert.True(t, replayed)
	assert.EqualValues(t, 4, runs.Load())
}

// TestKeep: what a result that reports a failure must be to be kept.
func TestKeep(t *testing.T) {
	c := New(WithIdempotency(nil))
	reg := toolerr.Default()
	ctx := context.Background()
	assert.True(t, c.Keep(ctx, false, nil))
	assert.True(t, c.Keep(ctx, true, reg.New(toolerr.CodeNotFound, "")))
	assert.False(t, c.Keep(ctx, true, reg.New(toolerr.CodeRateLimited, "")))
	assert.False(t, c.Keep(ctx, true, reg.New(toolerr.CodeInternal, "")))
	assert.False(t, c.Keep(ctx, true, nil), "an error result the handler built")
	cancelled, cancel := context.WithCancel(ctx)
	cancel()
	assert.False(t, c.Keep(cancelled, true, reg.New(toolerr.CodeNotFound, "")), "an interrupted call")
	assert.True(t, c.Keep(cancelled, false, nil), "a success is kept even when the caller left")
}
