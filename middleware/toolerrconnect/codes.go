package toolerrconnect

import (
	"connectrpc.com/connect"

	"github.com/toolerr/toolerr"
)

// CodeFor returns the Connect code an error of the toolerr contract is sent
// with: its code first, where the code says more than its category, then
// its category. The table (each deliberate choice with its reason):
//
//	validation                 → InvalidArgument
//	not_found                  → NotFound
//	auth                       → Unauthenticated
//	permission, policy         → PermissionDenied
//	precondition               → FailedPrecondition
//	conflict                   → Aborted; DUPLICATE_ACTION → AlreadyExists
//	rate_limit                 → ResourceExhausted (QUOTA_EXHAUSTED too)
//	transient                  → Unavailable; UPSTREAM_TIMEOUT, TOOL_TIMEOUT → DeadlineExceeded
//	cancelled                  → Canceled
//	internal                   → Internal
//	upstream                   → Unknown; NOT_IMPLEMENTED → Unimplemented
//
// An error with no known category is Internal.
func CodeFor(e *toolerr.Error) connect.Code {
	if e == nil {
		return connect.CodeInternal
	}
	switch e.Code {
	case toolerr.CodeUpstreamTimeout, toolerr.CodeToolTimeout:
		// gRPC: "the operation expired before completion", the one code
		// that tells the client the call may still have taken effect.
		return connect.CodeDeadlineExceeded
	case toolerr.CodeNotImplemented:
		// The operation is not supported: retrying or changing the
		// arguments will not help, which Unimplemented says.
		return connect.CodeUnimplemented
	case toolerr.CodeDuplicateAction:
		// The same action was already done: "the entity that a client
		// attempted to create already exists".
		return connect.CodeAlreadyExists
	case toolerr.CodePayloadTooLarge:
		// The argument itself is the problem, as for validation.
		return connect.CodeInvalidArgument
	}
	switch e.Category {
	case toolerr.CategoryValidation:
		return connect.CodeInvalidArgument
	case toolerr.CategoryNotFound:
		return connect.CodeNotFound
	case toolerr.CategoryAuth:
		return connect.CodeUnauthenticated
	case toolerr.CategoryPermission, toolerr.CategoryPolicy:
		// A policy block is a refusal of this caller's call, not of its
		// credentials: PermissionDenied, never to be retried.
		return connect.CodePermissionDenied
	case toolerr.CategoryPrecondition:
		// "Do not retry until the system state has been explicitly fixed".
		return connect.CodeFailedPrecondition
	case toolerr.CategoryConflict:
		// A concurrency conflict: gRPC's Aborted means "retry at a higher
		// level" (re-read state, then decide), which is the category's
		// advice; not the same call again.
		return connect.CodeAborted
	case toolerr.CategoryRateLimit:
		return connect.CodeResourceExhausted
	case toolerr.CategoryTransient:
		// "Most likely a transient condition, which can be corrected by
		// retrying with a backoff."
		return connect.CodeUnavailable
	case toolerr.CategoryCancelled:
		return connect.CodeCanceled
	case toolerr.CategoryUpstream:
		// A downstream failure nothing explained: gRPC's Unknown is the
		// code for "an error from another address space", and, unlike
		// Internal, does not claim a broken invariant of this service.
		return connect.CodeUnknown
	}
	return connect.CodeInternal
}

// codeName is the google.rpc.Code name of c ("RESOURCE_EXHAUSTED"), the
// form vendor tables and upstream.code use. Connect spells Canceled with
// one L; google.rpc.Code spells CANCELLED.
func codeName(c connect.Code) string {
	switch c {
	case connect.CodeCanceled:
		return "CANCELLED"
	case connect.CodeInvalidArgument:
		return "INVALID_ARGUMENT"
	case connect.CodeDeadlineExceeded:
		return "DEADLINE_EXCEEDED"
	case connect.CodeNotFound:
		return "NOT_FOUND"
	case connect.CodeAlreadyExists:
		return "ALREADY_EXISTS"
	case connect.CodePermissionDenied:
		return "PERMISSION_DENIED"
	case connect.CodeResourceExhausted:
		return "RESOURCE_EXHAUSTED"
	case connect.CodeFailedPrecondition:
		return "FAILED_PRECONDITION"
	case connect.CodeAborted:
		return "ABORTED"
	case connect.CodeOutOfRange:
		return "OUT_OF_RANGE"
	case connect.CodeUnimplemented:
		return "UNIMPLEMENTED"
	case connect.CodeInternal:
		return "INTERNAL"
	case connect.CodeUnavailable:
		return "UNAVAILABLE"
	case connect.CodeDataLoss:
		return "DATA_LOSS"
	case connect.CodeUnauthenticated:
		return "UNAUTHENTICATED"
	}
	return "UNKNOWN"
}

// validCode reports whether c is one of the sixteen error codes.
func validCode(c connect.Code) bool {
	return c >= connect.CodeCanceled && c <= connect.CodeUnauthenticated
}

// quotaName is the vendor code of a RESOURCE_EXHAUSTED that carries a
// QuotaFailure detail: an exhausted quota, not a rate to wait out.
const quotaName = "RESOURCE_EXHAUSTED_QUOTA"

// downstreamTable maps the code a downstream Connect or gRPC service sent
// (its google.rpc.Code name) to a toolerr code. Each row follows the gRPC
// status code documentation ("Status codes and their use in gRPC").
var downstreamTable = map[string]string{
	// "The operation was cancelled, typically by the caller."
	"CANCELLED": toolerr.CodeCancelled,
	// An error from another address space, or one the server could not
	// classify: nothing to decide by.
	"UNKNOWN": toolerr.CodeUpstreamUnclassified,
	// "Arguments that are problematic regardless of the state of the
	// system."
	"INVALID_ARGUMENT": toolerr.CodeValidationFailed,
	// "The operation may have completed successfully": an unknown outcome
	// (the mapper says so; the classifier then retries only idempotent
	// calls).
	"DEADLINE_EXCEEDED": toolerr.CodeUpstreamTimeout,
	"NOT_FOUND":         toolerr.CodeNotFound,
	// The entity exists already: a conflict with the current state.
	"ALREADY_EXISTS":    toolerr.CodeConflict,
	"PERMISSION_DENIED": toolerr.CodePermissionDenied,
	// A rate to wait out, with RetryInfo's delay...
	"RESOURCE_EXHAUSTED": toolerr.CodeRateLimited,
	// ...unless a QuotaFailure says a quota ran out: not retryable.
	quotaName: toolerr.CodeQuotaExhausted,
	// "Do not retry until the system state has been explicitly fixed."
	"FAILED_PRECONDITION": toolerr.CodePreconditionFailed,
	// A concurrency conflict: "retry at a higher level", re-reading state.
	"ABORTED": toolerr.CodeConflict,
	// "Operation was attempted past the valid range": the argument.
	"OUT_OF_RANGE":  toolerr.CodeValidationFailed,
	"UNIMPLEMENTED": toolerr.CodeNotImplemented,
	// A broken invariant of the downstream: its bug, not ours.
	"INTERNAL": toolerr.CodeUpstreamUnclassified,
	// "Most likely a transient condition"; the mapper marks the outcome
	// unknown, so only idempotent calls are retryable.
	"UNAVAILABLE":     toolerr.CodeUpstreamUnavailable,
	"DATA_LOSS":       toolerr.CodeUpstreamUnclassified,
	"UNAUTHENTICATED": toolerr.CodeUnauthenticated,
}

// localCode is the toolerr code of a *connect.Error that a handler of
// this service made itself (connect.NewError): the code keeps the meaning
// the handler gave it, and no row blames a downstream, as the
// middleware's local status rows do.
func localCode(c connect.Code) string {
	switch c {
	case connect.CodeCanceled:
		return toolerr.CodeCancelled
	case connect.CodeInvalidArgument, connect.CodeOutOfRange:
		return toolerr.CodeValidationFailed
	case connect.CodeDeadlineExceeded:
		return toolerr.CodeToolTimeout
	case connect.CodeNotFound:
		return toolerr.CodeNotFound
	case connect.CodeAlreadyExists, connect.CodeAborted:
		return toolerr.CodeConflict
	case connect.CodePermissionDenied:
		return toolerr.CodePermissionDenied
	case connect.CodeResourceExhausted:
		return toolerr.CodeRateLimited
	case connect.CodeFailedPrecondition:
		return toolerr.CodePreconditionFailed
	case connect.CodeUnimplemented:
		return toolerr.CodeNotImplemented
	case connect.CodeUnavailable:
		return toolerr.CodeToolUnavailable
	case connect.CodeUnauthenticated:
		return toolerr.CodeUnauthenticated
	}
	// Unknown, Internal, DataLoss and codes outside the sixteen: the
	// service's own failure.
	return toolerr.CodeInternal
}
