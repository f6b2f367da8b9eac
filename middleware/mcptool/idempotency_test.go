package mcptool_test

import (
	"context"
	"net/http"
	"sync"
	"testing"

	"github.com/modelcontextprotocol/go-sdk/mcp"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/middleware/mcptool"
)

// assertReplay checks that again is first replayed: the same content,
// structuredContent and isError, marked replayed.
func assertReplay(t *testing.T, first, again *mcp.CallToolResult) {
	t.Helper()
	assert.Equal(t, first.Content, again.Content)
	assert.Equal(t, first.StructuredContent, again.StructuredContent)
	assert.Equal(t, first.IsError, again.IsError)
	assert.Nil(t, first.Meta[mcptool.MetaReplayed], "the first answer is no replay")
	assert.Equal(t, true, again.Meta[mcptool.MetaReplayed])
}

// refusal returns the code of a failed call's problem object.
func refusal(t *testing.T, res *mcp.CallToolResult) string {
	t.Helper()
	require.True(t, res.IsError, "the call fails")
	code, _ := problem(t, res)["code"].(string)
	return code
}

// TestMCPRetriedMutationRunsOnce: over streamable HTTP behind toolerr's
// middleware, a retried call with the key in _meta, or in the POST's
// Idempotency-Key header, runs once; the retry gets the first result,
// structuredContent as first sent on the wire (a number past 2^53
// included), from typed and untyped handlers.
func TestMCPRetriedMutationRunsOnce(t *testing.T) {
	rig := newIdemRig(t)
	cs, wire := rig.connect(t, "/mcp-json", bearer("agent-1"))

	for _, tool := range []string{"create_label", "charge"} {
		t.Run(tool, func(t *testing.T) {
			first := callKeyed(t, cs, tool, idemIn{To: "Oslo"}, "k-"+tool)
			require.False(t, first.IsError, "%v", first.Content)
			sent := wire.lastCall(t).structuredOnWire(t)
			if tool == "charge" {
				// The SDK re-encodes a typed output through float64; an
				// untyped handler's JSON goes out as it wrote it.
				assert.Contains(t, sent, idemBig)
			}
			for range 3 {
				again := callKeyed(t, cs, tool, idemIn{To: "Oslo"}, "k-"+tool)
				assertReplay(t, first, again)
				assert.Equal(t, sent, wire.lastCall(t).structuredOnWire(t), "structuredContent as first sent")
			}
			assert.EqualValues(t, 1, rig.counter(tool).Load(), "the mutation ran once")
		})
	}

	t.Run("the same key with other arguments or another tool is refused", func(t *testing.T) {
		res := callKeyed(t, cs, "create_label", idemIn{To: "sk_live_Rk7Qm2ZpX9aLw4TnB8vYc3Hd"}, "k-create_label")
		assert.Equal(t, toolerr.CodeIdempotencyKeyReused, refusal(t, res))
		p := problem(t, res)
		assert.Equal(t, "arguments", p["details"].(map[string]any)["differs"])
		assert.Equal(t, false, p["retryable"])
		assert.NotContains(t, wire.lastCall(t).response, []byte("Rk7Qm2ZpX9aLw4Tn"), "the arguments are not echoed")
		assert.Contains(t, text(t, res)[0], mcptool.MetaIdempotencyKey, "the text says where a new key goes")
		res = callKeyed(t, cs, "charge", idemIn{To: "Oslo"}, "k-create_label")
		assert.Equal(t, toolerr.CodeIdempotencyKeyReused, refusal(t, res))
		assert.EqualValues(t, 1, rig.counter("create_label").Load())
		assert.EqualValues(t, 1, rig.counter("charge").Load())
	})

	t.Run("another caller with the same key runs its own call", func(t *testing.T) {
		other, _ := rig.connect(t, "/mcp-json", bearer("agent-2"))
		res := callKeyed(t, other, "create_label", idemIn{To: "Oslo"}, "k-create_label")
		require.False(t, res.IsError)
		assert.Nil(t, res.Meta[mcptool.MetaReplayed])
		assert.EqualValues(t, 2, rig.counter("create_label").Load())
	})

	t.Run("the key in the POST's Idempotency-Key header", func(t *testing.T) {
		h := bearer("agent-3")
		h.Set("Idempotency-Key", "k-header")
		hcs, _ := rig.connect(t, "/mcp", h)
		first := callKeyed(t, hcs, "create_label", idemIn{To: "Bergen"}, "")
		again := callKeyed(t, hcs, "create_label", idemIn{To: "Bergen"}, "")
		assertReplay(t, first, again)
		assert.EqualValues(t, 3, rig.counter("create_label").Load())
		same := callKeyed(t, hcs, "create_label", idemIn{To: "Bergen"}, "k-header")
		assertReplay(t, first, same)
		res := callKeyed(t, hcs, "create_label", idemIn{To: "Bergen"}, "k-other")
		assert.Equal(t, toolerr.CodeValidationFailed, refusal(t, res), "two different keys for one call")
		assert.EqualValues(t, 3, rig.counter("create_label").Load())
	})
}

// TestMCPConcurrentRetriesRunOnce: 50 identical keyed calls at once run
// the mutation once; with WithWait every caller gets its result.
func TestMCPConcurrentRetriesRunOnce(t *testing.T) {
	rig := newIdemRig(t, idempotency.WithWait(20e9))
	cs, _ := rig.connect(t, "/mcp", bearer("agent-1"))
	const n = 50
	results := make([]*mcp.CallToolResult, n)
	errs := make([]error, n)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			<-start
			results[i], errs[i] = cs.CallTool(context.Background(), &mcp.CallToolParams{
				Name: "create_label", Arguments: idemIn{To: "Oslo", Slow: true},
				Meta: mcp.Meta{mcptool.MetaIdempotencyKey: "k-burst"},
			})
		})
	}
	close(start)
	wg.Wait()
	assert.EqualValues(t, 1, rig.counter("create_label").Load(), "the mutation ran once")
	executed := 0
	for i, res := range results {
		require.NoError(t, errs[i])
		require.False(t, res.IsError, "%v", res.Content)
		assert.Equal(t, results[0].Content, res.Content)
		assert.Equal(t, map[string]any{"label": "L-1-Oslo", "account": float64(1152921504606846977)}, res.StructuredContent)
		if res.Meta[mcptool.MetaReplayed] == nil {
			executed++
		}
	}
	assert.Equal(t, 1, executed, "one answer is the execution, the others replays")
}

// TestMCPDuplicateGuard: a keyless repeat of a mutating call in the same
// session is refused with DUPLICATE_ACTION naming the first call's
// request id; another session, a read tool and a tool whose annotations
// say nothing of its effects are never refused; anonymous callers are
// not guarded, and their keys are refused.
func TestMCPDuplicateGuard(t *testing.T) {
	rig := newIdemRig(t)
	cs, wire := rig.connect(t, "/mcp-session", nil)
	first := callKeyed(t, cs, "charge", idemIn{To: "Oslo"}, "")
	require.False(t, first.IsError)
	firstID := wire.lastCall(t).header.Get("X-Request-Id")
	require.True(t, toolerr.ValidRequestID(firstID))
	res := callKeyed(t, cs, "charge", idemIn{To: "Oslo"}, "")
	assert.Equal(t, toolerr.CodeDuplicateAction, refusal(t, res))
	p := problem(t, res)
	details := p["details"].(map[string]any)
	assert.Equal(t, firstID, details["first_request_id"], "the first call's request id")
	assert.Equal(t, "completed", details["first_status"])
	assert.Equal(t, wire.lastCall(t).header.Get("X-Request-Id"), p["request_id"], "the refusal carries its own call's id")
	assert.Contains(t, p["hint"], mcptool.MetaIdempotencyKey)
	assert.EqualValues(t, 1, rig.counter("charge").Load())

	again := callKeyed(t, cs, "charge", idemIn{To: "Oslo"}, "k-on-purpose")
	assert.False(t, again.IsError, "a key repeats the action on purpose")
	other, _ := rig.connect(t, "/mcp-session", nil)
	assert.False(t, callKeyed(t, other, "charge", idemIn{To: "Oslo"}, "").IsError, "another session")
	assert.EqualValues(t, 3, rig.counter("charge").Load())

	for _, tool := range []string{"search", "titled", "bare"} {
		for range 2 {
			assert.False(t, callKeyed(t, cs, tool, idemIn{Note: "x"}, "").IsError, tool)
		}
		assert.EqualValues(t, 2, rig.counter(tool).Load(), "%s is never refused for asking twice", tool)
	}

	anon, _ := rig.connect(t, "/mcp", nil)
	for range 2 {
		assert.False(t, callKeyed(t, anon, "charge", idemIn{To: "Bergen"}, "").IsError, "anonymous callers are not guarded")
	}
	res = callKeyed(t, anon, "charge", idemIn{To: "Bergen"}, "k-anon")
	assert.Equal(t, toolerr.CodeUnauthenticated, refusal(t, res))
	assert.EqualValues(t, 5, rig.counter("charge").Load())
}

// TestMCPFailedCallIsNoDuplicate: a keyless call of a mutating tool that
// failed (NOT_FOUND, which would fail again) did not act: its repeat in
// the session runs and gets the true cause again, never DUPLICATE_ACTION
// saying the first call completed; a success after it is guarded.
// Regression: the guard remembered every kept result, so the repeat was
// refused with first_status "completed".
func TestMCPFailedCallIsNoDuplicate(t *testing.T) {
	rig := newIdemRig(t)
	cs, _ := rig.connect(t, "/mcp-session", nil)
	for range 2 {
		res := callKeyed(t, cs, "cancel_order", idemIn{To: "ord_8f3a2b91"}, "")
		assert.Equal(t, toolerr.CodeNotFound, refusal(t, res), "the true cause, every time")
	}
	assert.EqualValues(t, 2, rig.counter("cancel_order").Load(), "the repeat of a failed call runs")

	require.False(t, callKeyed(t, cs, "charge", idemIn{To: "Oslo"}, "").IsError)
	assert.Equal(t, toolerr.CodeDuplicateAction, refusal(t, callKeyed(t, cs, "charge", idemIn{To: "Oslo"}, "")),
		"a success is still guarded")
}

// TestMCPWhatIsNotKept: a failure that may pass, a panic, an error result
// the handler built, and arguments the SDK rejected release the key, so
// the retry runs; a failure that would fail again is replayed.
func TestMCPWhatIsNotKept(t *testing.T) {
	rig := newIdemRig(t)
	cs, _ := rig.connect(t, "/mcp-json", bearer("agent-1"))

	res := callKeyed(t, cs, "flaky_send", idemIn{}, "k-flaky")
	assert.Equal(t, toolerr.CodeRateLimited, refusal(t, res))
	ok := callKeyed(t, cs, "flaky_send", idemIn{}, "k-flaky")
	require.False(t, ok.IsError, "the retry of a failure that may pass runs")
	assertReplay(t, ok, callKeyed(t, cs, "flaky_send", idemIn{}, "k-flaky"))
	assert.EqualValues(t, 2, rig.counter("flaky_send").Load())

	res = callKeyed(t, cs, "boom", idemIn{}, "k-boom")
	assert.Equal(t, toolerr.CodeInternal, refusal(t, res))
	assert.False(t, callKeyed(t, cs, "boom", idemIn{}, "k-boom").IsError, "a panic is not kept")
	assert.EqualValues(t, 2, rig.counter("boom").Load())

	for range 2 {
		res = callKeyed(t, cs, "own_error", idemIn{}, "k-own")
		assert.True(t, res.IsError)
		assert.Nil(t, res.Meta[mcptool.MetaReplayed])
	}
	assert.EqualValues(t, 2, rig.counter("own_error").Load(), "an error the handler built says nothing of a retry: it runs")

	first := callKeyed(t, cs, "cancel_order", idemIn{}, "k-cancel")
	assert.Equal(t, toolerr.CodeNotFound, refusal(t, first))
	again := callKeyed(t, cs, "cancel_order", idemIn{}, "k-cancel")
	assertReplay(t, first, again)
	assert.Equal(t, problem(t, first), problem(t, again), "the same problem object, first request id included")
	assert.EqualValues(t, 1, rig.counter("cancel_order").Load())

	bad, err := cs.CallTool(context.Background(), &mcp.CallToolParams{
		Name: "create_label", Arguments: map[string]any{"to": 7},
		Meta: mcp.Meta{mcptool.MetaIdempotencyKey: "k-fix"},
	})
	require.NoError(t, err)
	assert.Equal(t, toolerr.CodeValidationFailed, refusal(t, bad))
	fixed := callKeyed(t, cs, "create_label", idemIn{To: "Oslo"}, "k-fix")
	assert.False(t, fixed.IsError, "arguments the SDK rejected left the key free for the corrected call")
	assert.EqualValues(t, 1, rig.counter("create_label").Load())
}

// TestMCPIdempotencyOnlyThroughAddTool: Wrap cannot see a tool's
// annotations or its final result, so it says it ignores WithIdempotency.
func TestMCPIdempotencyOnlyThroughAddTool(t *testing.T) {
	logger, logs := newLogger()
	_ = mcptool.Wrap("create_label", func(context.Context, *mcp.CallToolRequest, idemIn) (*mcp.CallToolResult, any, error) {
		return nil, nil, nil
	}, mcptool.WithLogger(logger), mcptool.WithIdempotency(nil))
	assert.Contains(t, logs.String(), "mcptool.Wrap ignores WithIdempotency")
	_ = http.StatusOK
}
