package toolerrmcpgo_test

import (
	"context"
	"encoding/json"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/middleware/toolerrmcpgo"
)

// oslo are the arguments of most calls.
var oslo = map[string]any{"to": "Oslo"}

// TestRetriedMutationRunsOnce: over streamable HTTP behind toolerr's
// middleware, with each Go client, a retried call with the key in _meta,
// or in the POST's Idempotency-Key header, runs once; the retry gets the
// first result, a number past 2^53 in structuredContent and in _meta as
// first sent; the same key with other arguments or for another tool is
// refused; another caller's key is its own.
func TestRetriedMutationRunsOnce(t *testing.T) {
	for _, kind := range goClients {
		t.Run(kind.name, func(t *testing.T) {
			rig := newIdemRig(t, noRecovery)
			a, w := rig.connect(t, kind, "/mcp", bearer("agent-1"))
			for _, tool := range []string{"create_label", "charge"} {
				first := keyed(t, a, tool, oslo, "k-"+tool)
				require.NotEqual(t, true, first["isError"], "%v", first)
				assert.Contains(t, lastCall(t, w).text(), idemBig, "%s: the first answer", tool)
				for range 3 {
					again := keyed(t, a, tool, oslo, "k-"+tool)
					assertReplay(t, first, again)
					assert.Contains(t, lastCall(t, w).text(), idemBig, "%s: the number as first sent", tool)
				}
				assert.EqualValues(t, 1, rig.ran(tool), "%s ran once", tool)
			}

			res := keyed(t, a, "create_label", map[string]any{"to": "sk_live_Rk7Qm2ZpX9aLw4TnB8vYc3Hd"}, "k-create_label")
			assert.Equal(t, toolerr.CodeIdempotencyKeyReused, refusal(t, res))
			p := problemOf(t, res)
			assert.Equal(t, "arguments", p["details"].(map[string]any)["differs"])
			assert.Equal(t, false, p["retryable"])
			assert.NotContains(t, lastCall(t, w).text(), "Rk7Qm2ZpX9aLw4Tn", "the arguments are not echoed")
			assert.Contains(t, textOf(t, res), toolerrmcpgo.MetaIdempotencyKey, "the text says where a new key goes")
			res = keyed(t, a, "charge", oslo, "k-create_label")
			assert.Equal(t, toolerr.CodeIdempotencyKeyReused, refusal(t, res))
			assert.EqualValues(t, 1, rig.ran("create_label"))
			assert.EqualValues(t, 1, rig.ran("charge"))

			other, _ := rig.connect(t, kind, "/mcp", bearer("agent-2"))
			res = keyed(t, other, "create_label", oslo, "k-create_label")
			assert.False(t, replayed(res), "another caller's key is its own")
			assert.EqualValues(t, 2, rig.ran("create_label"))

			h := bearer("agent-3")
			h.Set("Idempotency-Key", "k-header")
			ha, _ := rig.connect(t, kind, "/mcp", h)
			first := keyed(t, ha, "create_label", oslo, "")
			assertReplay(t, first, keyed(t, ha, "create_label", oslo, ""))
			assertReplay(t, first, keyed(t, ha, "create_label", oslo, "k-header"))
			res = keyed(t, ha, "create_label", oslo, "k-other")
			assert.Equal(t, toolerr.CodeValidationFailed, refusal(t, res), "two different keys for one call")
			assert.EqualValues(t, 3, rig.ran("create_label"))
		})
	}
}

// TestConcurrentRetriesRunOnce: 50 identical keyed calls at once, from
// mcp-go's client and from the go-sdk's, run the mutation once; with
// WithWait every caller gets its result.
func TestConcurrentRetriesRunOnce(t *testing.T) {
	for _, kind := range goClients {
		if kind.legacy {
			continue
		}
		t.Run(kind.name, func(t *testing.T) {
			rig := newIdemRig(t, noRecovery, idempotency.WithWait(20*time.Second))
			a, _ := rig.connect(t, kind, "/mcp", bearer("agent-1"))
			const n = 50
			results := make([]map[string]any, n)
			errs := make([]error, n)
			start := make(chan struct{})
			var wg sync.WaitGroup
			for i := range n {
				wg.Go(func() {
					<-start
					results[i], errs[i] = a.callKeyed(t, "create_label", map[string]any{"to": "Oslo", "slow": true}, "k-burst")
				})
			}
			close(start)
			wg.Wait()
			assert.EqualValues(t, 1, rig.ran("create_label"), "the mutation ran once")
			executed := 0
			for i, res := range results {
				require.NoError(t, errs[i])
				require.NotEqual(t, true, res["isError"], "%v", res)
				assert.Equal(t, results[0]["content"], res["content"])
				if !replayed(res) {
					executed++
				}
			}
			assert.Equal(t, 1, executed, "one answer is the execution, the others replays")
		})
	}
}

// TestDuplicateGuard: for a caller known by its credentials or its
// session, a keyless repeat of a mutating call is DUPLICATE_ACTION naming
// the first call's request id, whichever way the tool declared that it
// mutates; a key repeats on purpose; another caller, a read-only tool, a
// tool with only mcp.NewTool's default hints, one without annotations and
// one whose hints equal those defaults are never refused; anonymous
// callers are not guarded, and their keys are refused.
func TestDuplicateGuard(t *testing.T) {
	for _, kind := range goClients {
		t.Run(kind.name, func(t *testing.T) {
			rig := newIdemRig(t, noRecovery)
			a, w := rig.connect(t, kind, "/mcp", bearer("agent-1"))
			for _, tool := range []string{"charge", "create_label", "delete_order"} {
				require.NotEqual(t, true, keyed(t, a, tool, oslo, "")["isError"], tool)
				firstID := lastCall(t, w).header.Get("X-Request-Id")
				res := keyed(t, a, tool, oslo, "")
				assert.Equal(t, toolerr.CodeDuplicateAction, refusal(t, res), tool)
				p := problemOf(t, res)
				details := p["details"].(map[string]any)
				assert.Equal(t, firstID, details["first_request_id"], "%s: the first call's request id", tool)
				assert.Equal(t, lastCall(t, w).header.Get("X-Request-Id"), p["request_id"], "the refusal carries its own call's id")
				assert.Contains(t, p["hint"], toolerrmcpgo.MetaIdempotencyKey)
				assert.EqualValues(t, 1, rig.ran(tool), tool)
				assert.NotEqual(t, true, keyed(t, a, tool, oslo, "k-"+tool)["isError"], "%s: a key repeats on purpose", tool)
				other, _ := rig.connect(t, kind, "/mcp", bearer("agent-2"))
				assert.NotEqual(t, true, keyed(t, other, tool, oslo, "")["isError"], "%s: another caller", tool)
				assert.EqualValues(t, 3, rig.ran(tool), tool)
			}

			for _, tool := range []string{"search", "plain", "bare", "said_default"} {
				for range 2 {
					assert.NotEqual(t, true, keyed(t, a, tool, oslo, "")["isError"], tool)
				}
				assert.EqualValues(t, 2, rig.ran(tool), "%s is never refused for asking twice", tool)
			}
			for range 2 {
				assert.False(t, replayed(keyed(t, a, "search", oslo, "k-search")), "a read-only tool ignores keys")
			}
			assert.EqualValues(t, 4, rig.ran("search"))

			anon, _ := rig.connect(t, kind, "/mcp", nil)
			for range 2 {
				assert.NotEqual(t, true, keyed(t, anon, "charge", oslo, "")["isError"], "anonymous callers are not guarded")
			}
			assert.Equal(t, toolerr.CodeUnauthenticated, refusal(t, keyed(t, anon, "charge", oslo, "k-anon")))
			assert.EqualValues(t, 5, rig.ran("charge"))
		})
	}
}

// TestDuplicateGuardBySession: without credentials, a stateful session is
// the caller: its keyless repeat is refused, another session's call runs,
// and its keys replay.
func TestDuplicateGuardBySession(t *testing.T) {
	for _, kind := range goClients {
		if !kind.legacy {
			continue // 2026-07-28 has no sessions
		}
		t.Run(kind.name, func(t *testing.T) {
			rig := newIdemRig(t, noRecovery)
			a, _ := rig.connect(t, kind, "/mcp-session", nil)
			require.NotEmpty(t, a.session(), "a session")
			require.NotEqual(t, true, keyed(t, a, "charge", oslo, "")["isError"])
			assert.Equal(t, toolerr.CodeDuplicateAction, refusal(t, keyed(t, a, "charge", oslo, "")))
			other, _ := rig.connect(t, kind, "/mcp-session", nil)
			assert.NotEqual(t, true, keyed(t, other, "charge", oslo, "")["isError"], "another session")
			first := keyed(t, a, "create_label", oslo, "k-session")
			assertReplay(t, first, keyed(t, a, "create_label", oslo, "k-session"))
			assert.False(t, replayed(keyed(t, other, "create_label", oslo, "k-session")), "another session's key is its own")
			assert.EqualValues(t, 2, rig.ran("charge"))
			assert.EqualValues(t, 2, rig.ran("create_label"))
		})
	}
}

// TestWhatIsNotKept: a failure that may pass, a panic (recovered by the
// adapter, or by server.WithRecovery inside it, even when server errors
// are stored), an error result the handler built, and arguments mcp-go's
// input validation rejected release the key, so the retry runs; a failure
// that would fail again is replayed.
func TestWhatIsNotKept(t *testing.T) {
	kind := goClients[2] // the go-sdk client, 2026-07-28
	for _, p := range []placement{noRecovery, recoveryInner} {
		rig := newIdemRig(t, p, idempotency.StoreServerErrors())
		a, _ := rig.connect(t, kind, "/mcp", bearer("agent-1"))
		assert.Equal(t, toolerr.CodeInternal, refusal(t, keyed(t, a, "boom", nil, "k-boom")))
		assert.NotEqual(t, true, keyed(t, a, "boom", nil, "k-boom")["isError"], "a panic is not kept")
		assert.EqualValues(t, 2, rig.ran("boom"))
	}

	rig := newIdemRig(t, noRecovery)
	a, _ := rig.connect(t, kind, "/mcp", bearer("agent-1"))
	assert.Equal(t, toolerr.CodeRateLimited, refusal(t, keyed(t, a, "flaky_send", nil, "k-flaky")))
	ok := keyed(t, a, "flaky_send", nil, "k-flaky")
	require.NotEqual(t, true, ok["isError"], "the retry of a failure that may pass runs")
	assertReplay(t, ok, keyed(t, a, "flaky_send", nil, "k-flaky"))
	assert.EqualValues(t, 2, rig.ran("flaky_send"))

	for range 2 {
		res := keyed(t, a, "own_error", nil, "k-own")
		assert.Equal(t, true, res["isError"])
		assert.False(t, replayed(res))
	}
	assert.EqualValues(t, 2, rig.ran("own_error"), "an error the handler built says nothing of a retry: it runs")

	first := keyed(t, a, "cancel_order", nil, "k-cancel")
	assert.Equal(t, toolerr.CodeNotFound, refusal(t, first))
	again := keyed(t, a, "cancel_order", nil, "k-cancel")
	assertReplay(t, first, again)
	assert.Equal(t, problemOf(t, first), problemOf(t, again), "the same problem object, first request id included")
	assert.EqualValues(t, 1, rig.ran("cancel_order"))

	bad := keyed(t, a, "create_label", map[string]any{"to": 7}, "k-fix")
	assert.Equal(t, toolerr.CodeValidationFailed, refusal(t, bad))
	fixed := keyed(t, a, "create_label", oslo, "k-fix")
	assert.NotEqual(t, true, fixed["isError"], "arguments mcp-go rejected left the key free for the corrected call")
	assert.EqualValues(t, 1, rig.ran("create_label"))
}

// TestInstallTwiceWithIdempotency: two Installs that share one store run a
// keyed call once, and its retry is replayed, not IDEMPOTENCY_IN_PROGRESS
// (the inner one leaves the key to the outer).
func TestInstallTwiceWithIdempotency(t *testing.T) {
	idem := toolerrmcpgo.WithIdempotency(nil, idempotency.SharedAnonymousScope())
	s := server.NewMCPServer("labels", "1.0.0")
	toolerrmcpgo.Install(s, idem, toolerrmcpgo.WithLogger(quiet))
	toolerrmcpgo.Install(s, idem, toolerrmcpgo.WithLogger(quiet))
	var runs atomic.Int32
	s.AddTool(mcp.NewTool("create_label", mcp.WithDestructiveHintAnnotation(false)),
		func(context.Context, mcp.CallToolRequest) (*mcp.CallToolResult, error) {
			runs.Add(1)
			return mcp.NewToolResultText("label L-1"), nil
		})
	msg := func() json.RawMessage {
		b, err := json.Marshal(map[string]any{"jsonrpc": "2.0", "id": rpcIDs.Add(1), "method": "tools/call",
			"params": map[string]any{"name": "create_label", "_meta": map[string]any{toolerrmcpgo.MetaIdempotencyKey: "k-twice"}}})
		require.NoError(t, err)
		return b
	}
	first := handle(t, context.Background(), s, msg())
	again := handle(t, context.Background(), s, msg())
	require.Nil(t, first.Error)
	require.Nil(t, again.Error)
	assert.NotEqual(t, true, first.Result["isError"], "%v", first.Result)
	assert.Equal(t, true, again.Result["_meta"].(map[string]any)[toolerrmcpgo.MetaReplayed], "%v", again.Result)
	assert.EqualValues(t, 1, runs.Load())
}
