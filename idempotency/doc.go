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
// Every refusal is a rendered toolerr error: IDEMPOTENCY_KEY_MISSING,
// IDEMPOTENCY_KEY_REUSED, IDEMPOTENCY_IN_PROGRESS, IDEMPOTENCY_UNAVAILABLE,
// DUPLICATE_ACTION.
package idempotency
