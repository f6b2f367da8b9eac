package mcptest

import (
	"encoding/json"
	"testing"
)

// testCase is one case of the suite: the tools it adds to the server, the
// calls it makes (in order, in the group's one session) and the checks of
// what the client got.
type testCase struct {
	name  string
	tools []Tool
	calls []call
	// libraryValidation: the case needs the library to validate arguments
	// against the input schema; it is left out of configurations without.
	libraryValidation bool
	// stateful: the case needs a session; it is left out of stateless
	// configurations.
	stateful bool
	// knownCaller: the case needs a caller the server can tell apart
	// (idempotency keys are scoped by it); it is left out of
	// configurations whose client is anonymous.
	knownCaller bool
	check       func(t *testing.T, r *report)
}

// cases returns a fresh instance of every case, with its own state (run
// counters, what handlers saw), over the upstream services of env.
func cases(env *env) []*testCase {
	return []*testCase{
		caseGoError(),
		caseToolerrError(),
		casePanic(),
		caseTypedOutput(),
		caseRejectedArguments(),
		caseHandlerChecksArguments(),
		caseVendorError(env),
		caseHTMLGateway(env),
		caseTimeoutIntent(env),
		caseCancelledIntent(env),
		caseClientCancels(),
		caseIntentStaysWithItsCall(env),
		caseHostile(),
		caseCallIDs(),
		caseTelemetry(),
		caseSuccess(),
		caseToolsList(),
		caseUnknownTool(),
		caseKeyedRetryRunsOnce(),
		caseKeyReused(),
		caseDuplicateAction(),
		caseReadOnlyNeverGuarded(),
		caseRetryableFailureNotKept(),
		caseFailureReplayed(),
		caseUnguardedTools(),
		caseMalformedKey(),
		caseRejectedArgumentsNotKept(),
	}
}

// runGroup runs every case of configuration sc with client cl against a
// new server of adapter a, then checks what each case's calls got and
// sweeps everything the server sent and recorded.
func runGroup(t *testing.T, a Adapter, sc serverConfig, cl client) {
	env := newEnv(t)
	var run []*testCase
	for _, c := range cases(env) {
		if (c.libraryValidation && !sc.libraryValidation) || (c.stateful && sc.stateless) ||
			(c.knownCaller && sc.caller == callerAnonymous) {
			continue
		}
		run = append(run, c)
	}
	tools, calls, first := collect(t, run)
	r := newRig(t, a, sc, tools)
	listing, outs := cl.run(t, r.url, sc.header(), calls)
	r.close()
	for i, c := range run {
		t.Run(c.name, func(t *testing.T) {
			c.check(t, &report{rig: r, outs: outs[first[i] : first[i]+len(c.calls)], listing: listing,
				stateless: sc.stateless, caller: sc.caller})
		})
	}
	t.Run("nothing hostile in any byte the server sent", func(t *testing.T) { r.sweepWire(t) })
	t.Run("nothing secret in the log or the spans", func(t *testing.T) { r.sweepTelemetry(t) })
	t.Run("each failure the client saw is one count and one span", func(t *testing.T) { r.checkFailureCounts(t, outs) })
	t.Run("each call is one count of its tool", func(t *testing.T) { r.checkCallCounts(t, outs) })
}

// collect returns the tools and calls of cs, and the index in calls of
// each case's first call. A tool name used twice, two calls of one tool
// with the same arguments unless the later one is a repeat (their HTTP
// exchanges are told apart by their order only), or a repeat of no
// earlier call, is a mistake of the suite and fails t. Each call gets its
// place among the calls with its tool and arguments (call.same, call.nth).
func collect(t *testing.T, cs []*testCase) (tools []Tool, calls []call, first []int) {
	t.Helper()
	names := map[string]bool{}
	seen := map[string]int{}
	var keys []string
	for _, c := range cs {
		for _, tool := range c.tools {
			if names[tool.Name] {
				t.Fatalf("mcptest: tool %s is defined twice", tool.Name)
			}
			names[tool.Name] = true
			tools = append(tools, tool)
		}
		first = append(first, len(calls))
		for _, cl := range c.calls {
			var v any
			if err := json.Unmarshal(cl.args, &v); err != nil {
				t.Fatalf("mcptest: arguments of %s: %v", cl.tool, err)
			}
			canonical, _ := json.Marshal(v)
			key := cl.tool + " " + string(canonical)
			switch n := seen[key]; {
			case n > 0 && !cl.repeat:
				t.Fatalf("mcptest: %s is called twice with the same arguments (mark a deliberate repeat)", cl.tool)
			case n == 0 && cl.repeat:
				t.Fatalf("mcptest: a call of %s repeats no earlier call", cl.tool)
			}
			cl.nth = seen[key]
			seen[key]++
			calls = append(calls, cl)
			keys = append(keys, key)
		}
	}
	for i := range calls {
		calls[i].same = seen[keys[i]]
	}
	return tools, calls, first
}
