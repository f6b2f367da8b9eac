package toolerr

import (
	"net/http"
	"sync"
	"time"
)

// The built-in codes of the [Default] registry.
const (
	CodeValidationFailed       = "VALIDATION_FAILED"
	CodeNotFound               = "NOT_FOUND"
	CodeGone                   = "GONE"
	CodeUnauthenticated        = "UNAUTHENTICATED"
	CodePermissionDenied       = "PERMISSION_DENIED"
	CodePreconditionFailed     = "PRECONDITION_FAILED"
	CodeConflict               = "CONFLICT"
	CodeRateLimited            = "RATE_LIMITED"
	CodeQuotaExhausted         = "QUOTA_EXHAUSTED"
	CodePaymentRequired        = "PAYMENT_REQUIRED"
	CodePayloadTooLarge        = "PAYLOAD_TOO_LARGE"
	CodeUpstreamTimeout        = "UPSTREAM_TIMEOUT"
	CodeUpstreamUnavailable    = "UPSTREAM_UNAVAILABLE"
	CodeUpstreamMisconfigured  = "UPSTREAM_MISCONFIGURED"
	CodeUpstreamUnclassified   = "UPSTREAM_UNCLASSIFIED"
	CodeNotImplemented         = "NOT_IMPLEMENTED"
	CodePolicyBlocked          = "POLICY_BLOCKED"
	CodeInternal               = "INTERNAL_ERROR"
	CodeCancelled              = "CANCELLED"
	CodePartialFailure         = "PARTIAL_FAILURE"
	CodeIdempotencyKeyMissing  = "IDEMPOTENCY_KEY_MISSING"
	CodeIdempotencyKeyReused   = "IDEMPOTENCY_KEY_REUSED"
	CodeIdempotencyInProgress  = "IDEMPOTENCY_IN_PROGRESS"
	CodeIdempotencyUnavailable = "IDEMPOTENCY_UNAVAILABLE"
	CodeDuplicateAction        = "DUPLICATE_ACTION"
	CodeRepeatedFailure        = "REPEATED_FAILURE"
	CodeCircuitOpen            = "CIRCUIT_OPEN"
	CodeRetryBudgetExhausted   = "RETRY_BUDGET_EXHAUSTED"

	// The tool's own failures that a router or server middleware reports
	// (see builtin_local.go).
	CodeToolNotFound     = "TOOL_NOT_FOUND"
	CodeMethodNotAllowed = "METHOD_NOT_ALLOWED"
	CodeToolTimeout      = "TOOL_TIMEOUT"
	CodeToolUnavailable  = "TOOL_UNAVAILABLE"
)

// StatusClientClosedRequest is the non-standard 499 that nginx introduced for
// a client that went away; CANCELLED errors carry it.
const StatusClientClosedRequest = 499

// Default returns the built-in registry: the library's own codes, sealed
// against registration. Services register their codes in a registry of their
// own, NewRegistry(Default()), and build every error from that one.
func Default() *Registry { return defaultRegistry() }

var defaultRegistry = sync.OnceValue(func() *Registry {
	r := NewRegistry(nil)
	// The built-in table is fixed at compile time and a test asserts that it
	// registers without error, so the error cannot depend on input here.
	_ = r.Register(builtinDefs()...)
	r.sealed = true
	return r
})

var (
	backoffPolicy     = RetryPolicy{Strategy: StrategyExponential, BaseDelay: 500 * time.Millisecond, MaxAttempts: 3}
	idempotentBackoff = RetryPolicy{Strategy: StrategyExponential, BaseDelay: 500 * time.Millisecond, MaxAttempts: 3, IdempotencyRequired: true}
)

// builtinDefs is the built-in code table. Hints are imperative and written for
// a model; human hints are plain sentences for the end user.
func builtinDefs() []Def {
	defs := append([]Def{
		{
			Code: CodeValidationFailed, Category: CategoryValidation, Status: http.StatusBadRequest,
			Title:     "The request is invalid",
			Hint:      "Correct the invalid argument that detail describes, checking it against the tool's input schema, then call again; if the right value is unknown, ask the user.",
			HumanHint: "Some of the information provided was not valid.",
			Cause:     "An argument is missing, malformed, out of range or not one of the accepted values. The same call will fail again until the argument changes.",
			Repair:    []string{"Read detail for the invalid argument.", "Correct it against the tool's input schema and call again.", "Ask the user when the correct value cannot be derived."},
		},
		{
			Code: CodeNotFound, Category: CategoryNotFound, Status: http.StatusNotFound,
			Title:     "The resource does not exist",
			Hint:      "Do not retry with the same identifier. Look the resource up another way (search or list), or ask the user for the correct identifier.",
			HumanHint: "We could not find what you asked for.",
			Cause:     "The identifier names nothing the tool can see: it is mistyped, belongs to another account, or was never created.",
			Repair:    []string{"Search or list to find the right identifier.", "Ask the user to confirm the identifier."},
		},
		{
			Code: CodeGone, Category: CategoryNotFound, Severity: SeverityFatal, Status: http.StatusGone,
			Title:     "The resource was deleted",
			Hint:      "Stop using this identifier: the resource was deleted and will not come back. Tell the user, or create a new resource if the task allows it.",
			HumanHint: "What you asked for has been deleted.",
			Cause:     "The resource existed and was deleted permanently.",
			Repair:    []string{"Tell the user the resource was deleted.", "Create a replacement only if the task explicitly allows it."},
			Related:   []string{CodeNotFound},
		},
		{
			Code: CodeUnauthenticated, Category: CategoryAuth, Status: http.StatusUnauthorized,
			Title:     "Authentication is missing or expired",
			Hint:      "Refresh the credentials and call again once; if it fails again, escalate to a human.",
			HumanHint: "Please sign in again to continue.",
			Cause:     "The call carried no credentials, or credentials that expired or were revoked.",
			Repair:    []string{"Refresh the access token.", "Call again once with the new credentials.", "Escalate if the refreshed credentials are rejected too."},
			Actions:   []string{ActionRefreshAuth},
		},
		{
			Code: CodePermissionDenied, Category: CategoryPermission, Severity: SeverityFatal, Status: http.StatusForbidden,
			Title:     "Permission denied",
			Hint:      "Do not retry and do not try other mutating calls on this resource. Tell the user which permission is missing and escalate.",
			HumanHint: "Your account does not have permission to do this.",
			Cause:     "The credentials are valid but do not grant this action on this resource.",
			Repair:    []string{"Tell the user the action needs a permission they do not have.", "Escalate to someone who can grant it."},
			Actions:   []string{ActionHumanRequired},
		},
		{
			Code: CodePreconditionFailed, Category: CategoryPrecondition, Status: http.StatusPreconditionFailed,
			Title:     "The resource is not in the expected state",
			Hint:      "Read the resource's current state, then decide again whether and how to make this call.",
			HumanHint: "Something changed since this was requested; it needs another look.",
			Cause:     "The call assumed a state (a version, a status, a prior step) that the resource is no longer, or not yet, in.",
			Repair:    []string{"Fetch the current state of the resource.", "Decide again from that state."},
			Actions:   []string{ActionReadStateFirst},
		},
		{
			Code: CodeConflict, Category: CategoryConflict, Status: http.StatusConflict,
			Title:     "The request conflicts with the current state",
			Hint:      "Do not repeat the call as is. Fetch the current state, reconcile it with what you intended, or abort.",
			HumanHint: "This conflicts with a change that was already made.",
			Cause:     "Another change to the same resource won, or the resource already exists.",
			Repair:    []string{"Fetch the current state.", "Reconcile it with the intended change, or abort."},
			Actions:   []string{ActionReadStateFirst},
		},
		{
			Code: CodeRateLimited, Category: CategoryRateLimit, Status: http.StatusTooManyRequests, Retryable: true,
			Title:     "Too many requests",
			Hint:      "Wait, backing off exponentially from a few seconds, then make the same call again; do not send other calls to this tool meanwhile.",
			HumanHint: "The service is busy; this will be retried shortly.",
			Cause:     "The caller, or the downstream service on its behalf, sent more calls than the rate limit allows in a window.",
			Repair:    []string{"Wait, backing off exponentially.", "Retry the same call.", "Defer the task if the limit keeps being hit."},
			Retry:     RetryPolicy{Strategy: StrategyRetryAfter, BaseDelay: time.Second, MaxAttempts: 3},
		},
		{
			Code: CodeQuotaExhausted, Category: CategoryRateLimit, Severity: SeverityFatal, Status: http.StatusTooManyRequests,
			Title:     "The usage quota is exhausted",
			Hint:      "Do not retry: the quota or billing limit will not recover within this task. Tell the user the quota is used up.",
			HumanHint: "The usage limit for this service has been reached.",
			Cause:     "A daily, monthly or billing quota is used up. It arrives like a rate limit but waiting seconds does not help.",
			Repair:    []string{"Tell the user the quota is exhausted.", "Resume after the quota resets or the plan changes."},
			Actions:   []string{ActionHumanRequired},
			Related:   []string{CodeRateLimited},
		},
		{
			Code: CodePaymentRequired, Category: CategoryPolicy, Severity: SeverityFatal, Status: http.StatusPaymentRequired,
			Title:     "Payment is required",
			Hint:      "Do not retry. Tell the user the account's billing must be resolved before this call can succeed.",
			HumanHint: "A payment or billing issue is preventing this action.",
			Cause:     "The downstream account is unpaid, the plan does not include the feature, or a payment was declined.",
			Repair:    []string{"Tell the user about the billing problem."},
			Actions:   []string{ActionHumanRequired},
		},
		{
			Code: CodePayloadTooLarge, Category: CategoryValidation, Status: http.StatusRequestEntityTooLarge,
			Title:     "The request is too large",
			Hint:      "Send less: shorten the text, lower the limit, or split the batch into smaller calls.",
			HumanHint: "The request was too large to process.",
			Cause:     "The body, a header or the URL exceeds the size the tool or its downstream accepts.",
			Repair:    []string{"Split the input into smaller calls.", "Lower limit or page size."},
		},
		{
			Code: CodeUpstreamTimeout, Category: CategoryTransient, Status: http.StatusGatewayTimeout, Retryable: true,
			Title:     "The downstream service timed out",
			Hint:      "If retryable is true, let the orchestrator retry. If it is false, the operation may have run: read the resource's state before calling again.",
			HumanHint: "A service we depend on took too long to respond.",
			Cause:     "No answer arrived in time. For calls that change state the work may have happened anyway, so they are retryable only when idempotent.",
			Repair:    []string{"Retry if the call is idempotent.", "Otherwise check whether the operation happened before repeating it."},
			Retry:     idempotentBackoff,
		},
		{
			Code: CodeUpstreamUnavailable, Category: CategoryTransient, Status: http.StatusServiceUnavailable, Retryable: true,
			Title:     "The downstream service is unavailable",
			Hint:      "Let the orchestrator retry with backoff; do not change the arguments.",
			HumanHint: "A service we depend on is temporarily unavailable.",
			Cause:     "The downstream service refused, dropped or overloaded the connection, or a gateway in front of it could not reach it.",
			Repair:    []string{"Retry with exponential backoff.", "Escalate if it persists."},
			Retry:     backoffPolicy,
		},
		{
			Code: CodeUpstreamMisconfigured, Category: CategoryUpstream, Status: http.StatusBadGateway,
			Title:     "The downstream service cannot be reached as configured",
			Hint:      "Do not retry: this will not pass by itself. Tell the user the tool is misconfigured and escalate to its operator.",
			HumanHint: "This service is not set up correctly right now.",
			Cause:     "The downstream host name does not resolve, its TLS certificate is not trusted, or the connection is refused by configuration (protocol version, captive network).",
			Repair:    []string{"Escalate to the tool's operator."},
			Actions:   []string{ActionHumanRequired},
		},
		{
			Code: CodeUpstreamUnclassified, Category: CategoryUpstream, Status: http.StatusBadGateway,
			Title:     "The downstream service failed",
			Hint:      "Do not retry automatically. Report the failure to the user, or use another tool for this step.",
			HumanHint: "A service we depend on returned an unexpected error.",
			Cause:     "The downstream failure matched no known vendor code, header or status rule. It is logged and counted so the mapping can be extended.",
			Repair:    []string{"Surface the failure.", "Escalate if it repeats."},
		},
		{
			Code: CodeNotImplemented, Category: CategoryUpstream, Status: http.StatusNotImplemented,
			Title:     "The operation is not supported",
			Hint:      "Do not retry. This operation is not available; use another tool or ask the user how to proceed.",
			HumanHint: "This action is not supported.",
			Cause:     "The service does not implement the requested operation or method.",
			Repair:    []string{"Use another tool for this step."},
		},
		{
			Code: CodePolicyBlocked, Category: CategoryPolicy, Severity: SeverityFatal, Status: http.StatusForbidden,
			Title:     "The request is blocked by policy",
			Hint:      "Never retry or rephrase to get around this. Tell the user the action is not allowed.",
			HumanHint: "This action is not allowed.",
			Cause:     "A legal, safety, security or business rule forbids the call, whoever makes it.",
			Repair:    []string{"Tell the user the action is blocked."},
			Actions:   []string{ActionHumanRequired},
		},
		{
			Code: CodeInternal, Category: CategoryInternal, Status: http.StatusInternalServerError,
			Title:     "The tool failed",
			Hint:      "Do not change the arguments. Try once more later; if it fails again, escalate with the request_id.",
			HumanHint: "Something went wrong on our side.",
			Cause:     "The tool itself failed: a bug, a panic, or a broken dependency of its own. Details are in its logs under the request id.",
			Repair:    []string{"Escalate with the request_id if it persists."},
		},
		{
			Code: CodeCancelled, Category: CategoryCancelled, Severity: SeverityInfo, Status: StatusClientClosedRequest,
			Title:     "The request was cancelled",
			Hint:      "Nothing to do unless the task still needs this result; if it does, read the resource's state before calling again, since the work may have completed.",
			HumanHint: "The request was cancelled.",
			Cause:     "The caller disconnected or cancelled before the tool finished. Work already started may have completed.",
			Repair:    []string{"Read the resource's state for work that may have completed."},
		},
		{
			Code: CodePartialFailure, Category: CategoryConflict, Severity: SeverityWarning, Status: http.StatusConflict,
			Title:     "Part of the batch failed",
			Hint:      "Do not resend the whole call: some items were applied. Read the resource's state to find the items that failed, then resend only those.",
			HumanHint: "Some of the items could not be processed.",
			Cause:     "The batch was applied item by item and some items failed; errors lists them by index with their own codes.",
			Repair:    []string{"Read the resource's state to find the failed items.", "Resend only the failed items, corrected."},
			Actions:   []string{ActionReadStateFirst},
		},
		{
			Code: CodeIdempotencyKeyMissing, Category: CategoryValidation, Status: http.StatusBadRequest,
			Title:     "An idempotency key is required",
			Hint:      "Send an Idempotency-Key header with a new unique value for this operation, and reuse that same value on every retry of it.",
			HumanHint: "The request could not be processed safely.",
			Cause:     "This endpoint changes state and requires an Idempotency-Key so that retries cannot repeat the action.",
			Repair:    []string{"Generate a unique key per operation.", "Send it in the Idempotency-Key header, the same on every retry."},
		},
		{
			Code: CodeIdempotencyKeyReused, Category: CategoryValidation, Status: http.StatusUnprocessableEntity,
			Title:     "The idempotency key was used for a different request",
			Hint:      "A new operation needs a new Idempotency-Key. Generate one and call again; reuse a key only to retry the identical request.",
			HumanHint: "The request could not be processed safely.",
			Cause:     "The key was first used with another method, route or body. Replaying the first response would be wrong and running the new one would defeat the key.",
			Repair:    []string{"Generate a new Idempotency-Key for the new operation."},
		},
		{
			Code: CodeIdempotencyInProgress, Category: CategoryTransient, Status: http.StatusConflict, Retryable: true,
			Title:     "A request with this idempotency key is still running",
			Hint:      "Wait a few seconds, then send the identical request with the same key to get its result. Do not change the key.",
			HumanHint: "Your earlier request is still being processed.",
			Cause:     "The first request with this key has not finished. Its result will be replayed once it has.",
			Repair:    []string{"Wait a few seconds.", "Retry with the same key and body."},
			Retry:     RetryPolicy{Strategy: StrategyRetryAfter, BaseDelay: time.Second, MaxAttempts: 5, IdempotencyRequired: true},
		},
		{
			Code: CodeIdempotencyUnavailable, Category: CategoryTransient, Status: http.StatusServiceUnavailable, Retryable: true,
			Title:     "Idempotency cannot be guaranteed right now",
			Hint:      "Let the orchestrator retry with the same Idempotency-Key; nothing was executed.",
			HumanHint: "The service is temporarily unavailable.",
			Cause:     "The store that records idempotency keys is unreachable, so the tool refused to run rather than risk a duplicate.",
			Repair:    []string{"Retry with backoff and the same key."},
			Retry:     RetryPolicy{Strategy: StrategyExponential, BaseDelay: time.Second, MaxAttempts: 3, IdempotencyRequired: true},
		},
		{
			Code: CodeDuplicateAction, Category: CategoryConflict, Status: http.StatusConflict,
			Title:     "This action was just performed",
			Hint:      "Do not repeat it: an identical call already ran. Use its result; if a second action is really intended, send an Idempotency-Key.",
			HumanHint: "This was already done a moment ago.",
			Cause:     "An identical mutating call, same session, tool and arguments, ran inside the duplicate window without an idempotency key.",
			Repair:    []string{"Use the first call's result.", "Send a new Idempotency-Key if a second action is intended."},
			Actions:   []string{ActionReadStateFirst},
		},
		{
			Code: CodeRepeatedFailure, Category: CategoryPolicy, Status: http.StatusConflict,
			Title:     "This exact call keeps failing",
			Hint:      "Do not repeat this call: it failed the same way several times. Change the arguments, use a fallback tool if one is offered, or ask the user.",
			HumanHint: "This request keeps failing the same way, so it was not tried again.",
			Cause:     "The same caller sent the same tool the same arguments, and the call failed with the same non-retryable code several times within the thrash guard's window; the call was not run again, since it would fail the same way.",
			Repair:    []string{"Change the arguments, or use a fallback tool if one is offered.", "Ask the user when neither is possible."},
			Related:   []string{CodeDuplicateAction},
		},
		{
			Code: CodeCircuitOpen, Category: CategoryTransient, Status: http.StatusServiceUnavailable, Retryable: true,
			Title:     "The downstream service is failing; calls are paused",
			Hint:      "Wait several seconds before calling this tool again; calls are not being sent downstream until then.",
			HumanHint: "A service we depend on is having problems; we will try again shortly.",
			Cause:     "Recent calls to the downstream host failed repeatedly, so the circuit breaker stopped sending calls until a trial period.",
			Repair:    []string{"Wait several seconds.", "Use a fallback tool if one exists."},
			Retry:     RetryPolicy{Strategy: StrategyRetryAfter, BaseDelay: 5 * time.Second, MaxAttempts: 2},
		},
		{
			Code: CodeRetryBudgetExhausted, Category: CategoryTransient, Status: http.StatusServiceUnavailable,
			Title:     "Too many retries; the downstream looks down",
			Hint:      "Do not retry now: many calls are failing. Defer this step or escalate.",
			HumanHint: "A service we depend on is having problems.",
			Cause:     "Retries across all calls of this client exceeded their budget, which happens when a downstream service is failing broadly.",
			Repair:    []string{"Defer the task.", "Escalate if the outage persists."},
			Related:   []string{CodeUpstreamUnavailable},
		},
	}, localDefs()...)
	for i := range defs {
		defs[i].Wordings = builtinWordings(defs[i].Code)
	}
	return defs
}
