package toolerr

import "net/http"

// localDefs are the codes of failures of the tool's own service that are
// not a handler's error: the router found no tool or not this method, a
// server timeout cut the handler short, the service shed the call. They
// are never about a downstream: the middleware gives them only to
// responses with no evidence of one, and they carry no upstream member.
func localDefs() []Def {
	return []Def{
		{
			Code: CodeToolNotFound, Category: CategoryNotFound, Status: http.StatusNotFound,
			Title:     "The tool does not exist",
			Hint:      "Do not call this path again. List the available tools and call one of them, with the name and path exactly as listed.",
			HumanHint: "That action is not available.",
			Cause:     "No route of the service matches the path that was called: the tool name or path is mistyped, or the tool was removed or renamed.",
			Repair:    []string{"List the available tools.", "Call the right tool by its listed name and path."},
			Related:   []string{CodeNotFound},
		},
		{
			Code: CodeMethodNotAllowed, Category: CategoryValidation, Status: http.StatusMethodNotAllowed,
			Title:     "The tool does not accept this HTTP method",
			Hint:      "Do not repeat the call with this HTTP method. Call the tool again with a method it accepts, as its description or the response's Allow header gives it.",
			HumanHint: "That action cannot be done this way.",
			Cause:     "The route exists but is not registered for the HTTP method of the call.",
			Repair:    []string{"Find the accepted methods in the tool's description or the Allow header.", "Call again with one of them."},
		},
		{
			Code: CodeToolTimeout, Category: CategoryTransient, Status: http.StatusGatewayTimeout, Retryable: true,
			Title:     "The tool did not finish in time",
			Hint:      "If retryable is true, call again later. If it is false, the operation may have run: read the resource's state before calling again.",
			HumanHint: "This took too long to complete.",
			Cause:     "The service's own time limit for a call ran out before the tool finished. For calls that change state the work may have happened anyway, so they are retryable only when idempotent.",
			Repair:    []string{"Retry if the call is idempotent.", "Otherwise check whether the operation happened before repeating it."},
			Retry:     idempotentBackoff,
		},
		{
			Code: CodeToolUnavailable, Category: CategoryTransient, Status: http.StatusServiceUnavailable, Retryable: true,
			Title:     "The tool is temporarily unavailable",
			Hint:      "Let the orchestrator retry with backoff; do not change the arguments.",
			HumanHint: "This service is busy or under maintenance; try again shortly.",
			Cause:     "The service refused the call for now: it is overloaded, starting, draining or under maintenance. Nothing was done.",
			Repair:    []string{"Retry with exponential backoff.", "Escalate if it persists."},
			Retry:     backoffPolicy,
		},
	}
}
