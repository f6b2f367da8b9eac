// Package mcptest is the conformance suite of toolerr's MCP adapters: the
// behaviour every adapter promises (package middleware/mcptool for the
// official Go SDK, module middleware/toolerrmcpgo for mark3labs/mcp-go),
// written once and run by each adapter from its own tests, the way
// package idempotency/storetest serves every idempotency store.
//
// # Joining
//
// An adapter joins with one function and one line. The function builds a
// new server of its library with the suite's tools registered and toolerr
// installed, and returns the server's streamable HTTP handler
// ([Adapter.NewHandler]); the line runs the suite with it. mcptool's is in
// middleware/mcptool/conformance_test.go:
//
//	func TestConformance(t *testing.T) {
//		mcptest.Run(t, mcptest.Adapter{Name: "go-sdk", NewHandler: goSDKHandler})
//	}
//
// The function must, for each [Tool]:
//
//   - declare the tool with its name, description, InputSchema as it is
//     (the library validating arguments against it, always or when
//     [ServerConfig.LibraryValidation] asks), OutputSchema when not nil,
//     and the annotations it sets;
//   - run Handler with the call's raw arguments under toolerr, installed
//     with [ServerConfig.Options] (the suite's logger, tracer provider and
//     meter provider);
//   - on success, answer with out as structuredContent and its JSON as
//     text when the tool has an OutputSchema, and with the JSON as text
//     alone when it has none;
//   - run each call under the idempotency of [ServerConfig.Options]
//     (mcptool.WithIdempotency): the key from the call's _meta, the
//     caller from the POST's Authorization header or the MCP session, the
//     tool's annotations as the hints of mcpcore.Once;
//
// and serve the server stateless when [ServerConfig.Stateless] says so.
//
// # What the suite does
//
// [Run] runs every case in three server configurations (stateless and
// stateful with the library validating arguments, and stateless without)
// with two clients: the go-sdk client and the official TypeScript SDK
// client (testdata/tsclient). The configurations' clients are the three
// callers idempotency tells apart: the stateless client sends an
// Authorization header with every request, the stateful one is known by
// its session, and the client of the stateless server without library
// validation is anonymous. Each of the six groups gets a server of its
// own on a loopback port, with every case's tools: the adapter's handler
// behind toolerr's middleware.New (which stamps per-request ids the
// adapters read per call) and otelhttp with the real OpenTelemetry SDK,
// the outermost handler keeping every byte sent. The groups run in
// parallel; a group's calls run in order in one session (one node process
// for the TypeScript client).
//
// Every failed call is checked as a model sees it: a result, not a
// protocol error or a client that throws; isError; one text content that
// is the observation of the problem object, complete, since agent
// runtimes drop _meta and structuredContent of an error result; the
// problem object in _meta (mcptool.MetaProblem), valid by toolerr's
// contract, and in structuredContent exactly when the tool declares no
// outputSchema; no secret, internal host, stack trace or HTML in any of
// it; its request id the X-Request-Id of the POST that carried the call
// and its trace id that POST's server span's; one log record. The cases
// are:
//
//   - failure: a returned Go error (INTERNAL_ERROR, its text in the log
//     only), a returned *toolerr.Error (its members kept, its free text
//     sanitized), a panic (INTERNAL_ERROR, its value and stack in the log
//     only, the server still serving), a tool with an outputSchema (the
//     problem object in _meta only);
//   - arguments: rejected by the library (VALIDATION_FAILED with every
//     violation at its pointer, the certain repair as example_request,
//     the user asked for what nobody can derive; the repaired call runs),
//     and checked by the handler (argcheck's error, or the handler's own,
//     as it was made);
//   - upstream: Stripe's declined card through translate.Response, a
//     gateway's HTML 502 page;
//   - interrupted: a timeout and a cancellation carrying the intent the
//     handler recorded, an intent staying with its call, and, in a
//     session, a client's cancellation reaching the handler;
//   - hostile: secrets, internal hosts, an HTML page and a Go stack trace
//     in every member of an error, in a Go error, a panic value, a detail
//     and a hint;
//   - ids: each call of a session carrying its own POST's ids;
//   - telemetry: one toolerr.error span, one toolerr.errors count and one
//     log record per failure;
//   - success: unchanged, recording nothing; tools/list unchanged;
//   - idempotency (each tool counting its runs): a mutation (readOnlyHint
//     false, a destructiveHint) retried with its key runs once, the retry
//     getting the first result (content, structuredContent, _meta) marked
//     with mcptool.MetaReplayed, a new key running anew; the key reused
//     with other arguments or for another tool is IDEMPOTENCY_KEY_REUSED,
//     naming what differs, echoing neither the arguments nor the key; a
//     keyless repeat is DUPLICATE_ACTION naming the first call's
//     X-Request-Id; a read-only tool, a tool without annotations and one
//     declared idempotent run every time; a retryable failure, a panic and
//     arguments the library rejected are not kept, so the retry runs; a
//     failure that would recur is replayed; a malformed key is
//     VALIDATION_FAILED. For the anonymous client every keyed call of a
//     mutation is UNAUTHENTICATED and keyless repeats run.
//
// After the cases each group sweeps every byte the server sent (headers
// and bodies, SSE streams included) and every log record and span for
// secrets and exposures, and checks that each failure the client saw was
// counted once in toolerr.errors and recorded on one toolerr.error span.
// A refusal of idempotency is a failure like any; a failure replayed to a
// retry is the first call's, with its ids, and is not counted, logged or
// traced again.
//
// A case's calls are told apart on the wire by their tool and arguments;
// a call that repeats another on purpose (a retry, a duplicate) is told
// apart by its order, the calls of a group being made one after another.
//
// # The TypeScript client
//
// testdata/tsclient holds client.mjs and the package.json that pins the
// official TypeScript MCP SDK; `npm ci` there installs it (.ci/run does).
// The suite finds the folder next to its own source, so nested modules run
// it through their replace directive. Without node or the SDK the
// TypeScript groups are skipped, and fail when the CI environment variable
// is set.
package mcptest
