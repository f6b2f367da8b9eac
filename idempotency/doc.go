// Package idempotency makes retries of mutating tool calls safe: an agent
// that retries create_shipment_label gets the first label back, never a
// second paid one.
//
// [Middleware] implements the Idempotency-Key header (IETF draft, Stripe's
// semantics) over a [Store]: the in-process [MemoryStore], or
// idempotency/redisstore for several replicas. [DuplicateGuard] blocks an
// identical mutating call without a key inside a short window, the usual
// mistake of an agent that lost track of what it did. [Key] derives a key
// from a tool call's session, tool and arguments, for agent runtimes that
// send one.
//
// [ToolCalls] gives the same promises to the calls of an MCP server (see
// "MCP tool calls" below).
//
// [ThrashGuard] (HTTP) and [ThrashCalls] (a tool call, for the MCP
// adapters) refuse the identical call that failed twice in a row with the
// same non-retryable code within 10 minutes: an agent looping on a
// permanent failure is told to change the arguments, use a fallback, or
// ask the user. They count failures in a [FailureCounter]: [MemoryStore],
// or idempotency/redisstore across replicas (idempotency/pgstore does not
// count failures). While the counter, a [RunsWatcher], says it holds no
// run of failures, a call is not looked up: the guards cost nothing
// measurable without failures.
//
// Every refusal is a rendered toolerr error: IDEMPOTENCY_KEY_MISSING,
// IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_IN_PROGRESS, IDEMPOTENCY_UNAVAILABLE,
// DUPLICATE_ACTION, REPEATED_FAILURE, and UNAUTHENTICATED for a keyed
// request without a principal.
//
// # Guarantees
//
//   - No middleware of this package changes the bytes a handler reads: a
//     body read for the fingerprint is given back whole, also when it is
//     over the read limit or its reading failed.
//   - A store never drops a claim in flight: a bounded store that is full
//     of them refuses new claims ([ErrStoreFull], answered with
//     IDEMPOTENCY_UNAVAILABLE), so a request never runs twice at once.
//   - Anonymous callers (no principal, see [WithPrincipal]) never share
//     replays or duplicate checks unless the service opts in
//     ([SharedAnonymousScope]).
//   - Store calls have their own deadline ([WithStoreTimeout], 500 ms by
//     default): an unreachable store answers within about that time.
//
// # MCP tool calls
//
// Over MCP's streamable HTTP every JSON-RPC message is a POST of its own,
// with its own JSON-RPC id: replaying a POST's response would hand a retry
// the answer to another call, under another id. [ToolCalls] gives the
// same promises at the level of a tool call: [ToolCalls.Do] runs a call
// at most once per idempotency key and replays its result, byte for byte,
// to a retry; it refuses a key reused for another tool or other arguments
// (IDEMPOTENCY_KEY_REUSED) and a retry while the first call runs
// (IDEMPOTENCY_IN_PROGRESS, or waits with [WithWait]); and without a key
// it blocks the repeat of a call of a mutating tool within the window
// (DUPLICATE_ACTION), as [DuplicateGuard] does. A key is scoped by the
// caller (a tenant, a credential digest or the MCP session), never shared
// between callers; the fingerprint is the tool and its canonical
// arguments. It shares the [Store] and the options of [Middleware].
//
// The MCP adapters of toolerr (middleware/mcptool for the official Go
// SDK) build on it: a client sends the key in the call's _meta, under
// "io.toolerr/idempotency-key", or in the Idempotency-Key header of the
// POST that carries the call. Do not mount [Middleware] or
// [DuplicateGuard] in front of an MCP endpoint: they would treat each
// JSON-RPC message as a request of its own.
//
// # Canonical numbers
//
// [Canonicalize], and with it [Key] and the default fingerprint of
// [Middleware] and [DuplicateGuard], follows RFC 8785 (JCS) with one
// deviation: a number is written from its exact decimal value, never from
// the IEEE-754 double nearest to it, so that distinct numbers never share
// a canonical text (RFC 8785 writes both 1152921504606846977 and
// 1152921504606846976 as 1152921504606846976) while equal ones always do
// (1, 1.0, 1e0, 10e-1 and 0.1e1 are all 1). The rule, for implementations
// in other languages:
//
//  1. Read the number's sign, its digits (the integer part then the
//     fraction part, as one string) and its exponent (0 when absent; any
//     number of digits, leading zeros allowed) from the JSON text. Do not
//     convert it to a binary floating-point value.
//  2. If every digit is 0, the canonical text is 0 (so -0 is 0).
//  3. Otherwise remove the leading and trailing zeros of the digit string:
//     s is what remains and k its length. Let n be the integer for which
//     the value is ±0.s × 10^n: the number of integer-part digits, minus
//     the number of leading zeros removed, plus the exponent.
//  4. If |n−1| > [MaxCanonicalExponent] (999,999,999), the input is
//     rejected ([ErrInvalidJSON]).
//  5. Write "-" if the number is negative, then lay s and n out as
//     ECMAScript's Number::toString does:
//     if k ≤ n ≤ 21, s followed by n−k zeros (12300);
//     else if 0 < n ≤ 21, the first n digits of s, ".", the other k−n
//     (12.5);
//     else if −6 < n ≤ 0, "0.", −n zeros, s (0.00125);
//     else the first digit of s, then "." and the other k−1 digits when
//     k > 1, then "e", "+" when n > 1 else "-", and |n−1| in decimal
//     without leading zeros (1e+21, 1.25e-7).
//
// When a number's text has the value of the shortest round-trip decimal of
// its double, as JSON encoders and JavaScript's JSON.stringify print
// numbers, the result is exactly RFC 8785's: every number example of
// RFC 8785 Appendix B holds. It differs only where RFC 8785 rounds: values
// other than the shortest decimal of their double (9007199254740993,
// 333333333.33333329, 0.10000000000000000001), and values beyond a double's
// range (1e400, written 1e+400) or below its smallest subnormal (1e-400,
// written 1e-400, not 0). Derive keys from the argument text as sent: a
// runtime that decodes the arguments into doubles first has already merged
// distinct numbers.
package idempotency
