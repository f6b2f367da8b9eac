package grpcerr

import "github.com/toolerr/toolerr"

// Vendor is the vendor name of gRPC outcomes: upstream.vendor of their
// errors, and the name of their code table.
const Vendor = "grpc"

// quotaCode is the vendor code of a RESOURCE_EXHAUSTED that carries a
// QuotaFailure: an exhausted quota, not a rate to wait out.
const quotaCode = "RESOURCE_EXHAUSTED_QUOTA"

// table maps the canonical gRPC status codes (google.rpc.Code names, as
// upstream.code shows them) to toolerr codes. Each row follows the gRPC
// status code documentation (grpc.io, "Status codes and their use in
// gRPC", and google.rpc.Code's comments).
var table = map[string]string{
	// CANCELLED: "The operation was cancelled, typically by the caller."
	"CANCELLED": toolerr.CodeCancelled,
	// UNKNOWN: an error from another address space, or one the server
	// could not classify: nothing to decide by.
	"UNKNOWN": toolerr.CodeUpstreamUnclassified,
	// INVALID_ARGUMENT: "arguments that are problematic regardless of the
	// state of the system".
	"INVALID_ARGUMENT": toolerr.CodeValidationFailed,
	// DEADLINE_EXCEEDED: "the operation expired before completion ... the
	// operation may have completed successfully": an unknown outcome.
	"DEADLINE_EXCEEDED": toolerr.CodeUpstreamTimeout,
	// NOT_FOUND: "Some requested entity was not found."
	"NOT_FOUND": toolerr.CodeNotFound,
	// ALREADY_EXISTS: "The entity that a client attempted to create
	// already exists."
	"ALREADY_EXISTS": toolerr.CodeConflict,
	// PERMISSION_DENIED: "The caller does not have permission" (not for
	// exhausted resources, nor unauthenticated callers).
	"PERMISSION_DENIED": toolerr.CodePermissionDenied,
	// RESOURCE_EXHAUSTED: "Some resource has been exhausted, perhaps a
	// per-user quota": a rate to wait out, with RetryInfo's delay...
	"RESOURCE_EXHAUSTED": toolerr.CodeRateLimited,
	// ...unless a QuotaFailure says a quota ran out: not retryable.
	quotaCode: toolerr.CodeQuotaExhausted,
	// FAILED_PRECONDITION: "the system is not in a state required for the
	// operation's execution"; "do not retry until the system state has
	// been explicitly fixed".
	"FAILED_PRECONDITION": toolerr.CodePreconditionFailed,
	// ABORTED: a concurrency conflict (sequencer check, transaction
	// abort); "the client should retry at a higher level", re-reading
	// state: not the same call again.
	"ABORTED": toolerr.CodeConflict,
	// OUT_OF_RANGE: "operation was attempted past the valid range": the
	// argument, as INVALID_ARGUMENT.
	"OUT_OF_RANGE": toolerr.CodeValidationFailed,
	// UNIMPLEMENTED: "The operation is not implemented or is not
	// supported/enabled in this service."
	"UNIMPLEMENTED": toolerr.CodeNotImplemented,
	// INTERNAL: "some invariants expected by the underlying system have
	// been broken ... a serious error": the downstream's bug.
	"INTERNAL": toolerr.CodeUpstreamUnclassified,
	// UNAVAILABLE: "most likely a transient condition, which can be
	// corrected by retrying with a backoff. Note that it is not always
	// safe to retry non-idempotent operations."
	"UNAVAILABLE": toolerr.CodeUpstreamUnavailable,
	// DATA_LOSS: "Unrecoverable data loss or corruption."
	"DATA_LOSS": toolerr.CodeUpstreamUnclassified,
	// UNAUTHENTICATED: "The request does not have valid authentication
	// credentials for the operation."
	"UNAUTHENTICATED": toolerr.CodeUnauthenticated,
}
