package translate

import "github.com/toolerr/toolerr/classify"

// jsonGenericTranslate reads the common JSON error shapes no vendor translator
// claimed, first match wins:
//
//	{"error": {"code": "…" | 123, "message": "…", "field"?: "…"}}
//	{"error": "invalid_grant", "error_description": "…"}   (OAuth 2.0)
//	{"errors": [{"message", "code"?, "field"?}]}  and a top-level array of the same
//	{"errors": {"email": ["is invalid"]}}         (Rails)
//	{"message": "…" | ["…"], "code"?: …}
//	{"detail": "…" | [{"loc", "msg", "type"}]}     (FastAPI)
//
// Its row has no name: the status decides the class, and a code is reported as
// unmapped.
//
// It reads one of the shapes above from a failure (status >= 400);
// ok is false for any other body.
func jsonGenericTranslate(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 || !r.IsJSON() {
		return classify.Outcome{}, false
	}
	b := trimLeftSpace(r.Body)
	if len(b) > 0 && b[0] == '[' {
		item := readFirstItem(b)
		if item == nil {
			return classify.Outcome{}, false
		}
		o, ok := readErrorItem(item, r.Status)
		o.RequestID = requestIDOf(nil, r)
		return o, ok
	}
	top := r.object()
	ok := top != nil
	if !ok {
		return classify.Outcome{}, false
	}
	o, ok := commonShapeOf(r, top)
	if !ok {
		return classify.Outcome{}, false
	}
	if o.RequestID == "" {
		o.RequestID = requestIDOf(top, r)
	}
	if o.Evidence.Retry == classify.AdviceNone {
		o.Evidence.Retry = retryableAdvice(top)
	}
	if o.Delay == 0 {
		o.Delay = bodyDelayMS(top, "retry_after_ms") // honoured beside retryable, at the top too
	}
	if o.Field == "" {
		o.Field = offendingField(top)
	}
	return o, true
}
