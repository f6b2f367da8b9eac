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
//
// and serve the server stateless when [ServerConfig.Stateless] says so.
//
// # What the suite does
//
// [Run] runs every case in three server configurations (stateless and
// stateful with the library validating arguments, and stateless without)
// with two clients: the go-sdk client and the official TypeScript SDK
// client (testdata/tsclient). Each of the six groups gets a server of its
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
//   - success: unchanged, recording nothing; tools/list unchanged.
//
// After the cases each group sweeps every byte the server sent (headers
// and bodies, SSE streams included) and every log record and span for
// secrets and exposures, and checks that each failure the client saw was
// counted once in toolerr.errors and recorded on one toolerr.error span.
//
// At-most-once execution of mutating tools (idempotency) is not part of
// the suite yet.
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
