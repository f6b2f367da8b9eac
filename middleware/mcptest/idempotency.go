package mcptest

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/mcptool"
)

// metaReplayed is the _meta member, true, of a result replayed to a retry.
const metaReplayed = mcptool.MetaReplayed

// keyed is a call of tool with the JSON arguments args and the
// idempotency key key in its _meta.
func keyed(tool, args, key string) call {
	c := callOf(tool, args)
	c.key = key
	return c
}

// again is c marked as a deliberate repeat of an earlier call with its
// tool and arguments: a retry, or an accidental duplicate.
func again(c call) call {
	c.repeat = true
	return c
}

// counting returns a tool named name that counts its runs in runs and
// answers with what out makes of the run's number (1 for the first).
func counting(name string, runs *atomic.Int32, out func(n int32) (any, error)) Tool {
	return newTool(name, func(context.Context, json.RawMessage) (any, error) { return out(runs.Add(1)) })
}

// mutating returns t declared as a tool that modifies its environment:
// readOnlyHint false and destructiveHint destructive, so that its keyless
// repeats are guarded (mcpcore.Hints.Mutating).
func mutating(t Tool, destructive bool) Tool {
	no := false
	t.Annotations = Annotations{ReadOnly: &no, Destructive: &destructive}
	return t
}

// replayed checks that call i got the result of call first replayed, as
// the model sees it: the same content, structuredContent, isError and
// _meta members (the problem object of a failure among them, with the
// first call's ids), marked with metaReplayed; and that the first result
// is no replay.
func (r *report) replayed(t *testing.T, i, first int) {
	t.Helper()
	o, f := r.outs[i], r.outs[first]
	name := o.call.tool
	require.Empty(t, o.threw, "%s: the client threw on the replayed result", name)
	require.NotNil(t, o.result, name)
	require.NotNil(t, f.result, name)
	assertCleanValue(t, name+": replayed result", o.result)
	for _, member := range []string{"content", "structuredContent", "isError"} {
		assert.Equal(t, f.result[member], o.result[member], "%s: the retry gets the first call's %s", name, member)
	}
	meta := object(o.result, "_meta")
	assert.Equal(t, true, meta[metaReplayed], "%s: the retry's result is marked _meta[%q]", name, metaReplayed)
	firstMeta := object(f.result, "_meta")
	assert.NotContains(t, firstMeta, metaReplayed, "%s: the first call's result is no replay", name)
	rest := map[string]any{}
	for k, v := range meta {
		if k != metaReplayed {
			rest[k] = v
		}
	}
	if len(firstMeta) == 0 {
		firstMeta = map[string]any{}
	}
	assert.Equal(t, firstMeta, rest, "%s: the retry gets the first call's _meta", name)
}

// fresh checks that call i's result is no replay.
func (r *report) fresh(t *testing.T, i int) {
	t.Helper()
	assert.NotContains(t, object(r.outs[i].result, "_meta"), metaReplayed, "%s: call %d ran: its result is no replay", r.outs[i].call.tool, i)
}

// unauthenticated checks that each of calls, keyed calls of a client
// nothing identifies, was refused with UNAUTHENTICATED: a key is scoped
// by its caller, and a caller nobody can tell apart from another would
// get another's result.
func (r *report) unauthenticated(t *testing.T, calls ...int) {
	t.Helper()
	for _, i := range calls {
		require.NotEmpty(t, r.outs[i].call.key, "call %d is keyed", i)
		p := r.failed(t, i)
		assert.Equal(t, toolerr.CodeUnauthenticated, p["code"], "%s: a keyed call of a caller nothing identifies", r.outs[i].call.tool)
		r.fresh(t, i)
	}
}

// assertNoEcho checks that nothing of values (the call's arguments, its
// key) is in what the client got for call i, as decoded or as sent.
func (r *report) assertNoEcho(t *testing.T, i int, values ...string) {
	t.Helper()
	res, err := json.Marshal(r.outs[i].result)
	require.NoError(t, err)
	_, _, body := r.exchangeOf(t, i).response()
	for _, v := range values {
		assert.NotContains(t, string(res), v, "%s: the result echoes %q", r.outs[i].call.tool, v)
		assert.NotContains(t, string(body), v, "%s: the answer on the wire echoes %q", r.outs[i].call.tool, v)
	}
}

// assertTellsWhereKeysGo checks that the text a model reads of call i's
// refusal names where an idempotency key goes.
func (r *report) assertTellsWhereKeysGo(t *testing.T, i int) {
	t.Helper()
	text := r.text(t, i)
	assert.True(t, strings.Contains(text, mcptool.MetaIdempotencyKey), "%s: the text says where a key goes: %s", r.outs[i].call.tool, text)
}
