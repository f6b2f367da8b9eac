package translate

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"time"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// githubSecondaryWait is how long GitHub asks clients to wait after a
// secondary rate limit that names no retry-after and no reset: GitHub REST
// API docs, "Rate limits for the REST API", exceeding the secondary limit:
// "wait for at least one minute before retrying".
const githubSecondaryWait = time.Minute

// githubRecognizes claims a response with GitHub's request id or media type
// header, or a body whose documentation_url points at GitHub's docs.
func githubRecognizes(r *Raw) bool {
	if canonheader.Value(r.Header, "X-Github-Request-Id") != "" || canonheader.Value(r.Header, "X-Github-Media-Type") != "" {
		return true
	}
	if !bytes.Contains(r.Body, []byte(`"documentation_url"`)) {
		return false
	}
	m := r.object()
	ok := m != nil
	if !ok {
		return false
	}
	doc := m.str("documentation_url")
	return strings.HasPrefix(doc, "https://docs.github.com/") || strings.HasPrefix(doc, "https://developer.github.com/")
}

// githubTranslate reads GitHub REST API errors:
//
//	{"message": "Validation Failed",
//	 "errors": [{"resource": "Issue", "field": "title", "code": "missing_field"}],
//	 "documentation_url": "https://docs.github.com/…", "status": "422"}
//
// with the request id in X-GitHub-Request-Id. GitHub has no top-level
// error code; the vendor code is errors[0].code when there is one, and
// otherwise the status decides. A 403 or 429 is a rate limit when
// x-ratelimit-remaining is 0 (the classifier's header evidence, with the
// X-RateLimit-Reset epoch as the delay) or when the message names a rate
// limit (the secondary limits); any other 403 is a permission denial.
//
// It reads a GitHub error body. GitHub's REST API answers errors
// with 4xx and 5xx statuses only, so a 2xx is never one.
func githubTranslate(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 {
		return classify.Outcome{}, false
	}
	m := r.object()
	ok := m != nil
	if !ok {
		return classify.Outcome{}, false
	}
	msg, doc := m.str("message"), m.str("documentation_url")
	if msg == "" && doc == "" {
		return classify.Outcome{}, false
	}
	o := classify.Outcome{Message: msg, RequestID: canonheader.Value(r.Header, "X-Github-Request-Id")}
	setDetail(&o, "doc_url", doc)
	githubFirstError(&o, m.items("errors"))
	if r.Status == http.StatusForbidden || r.Status == http.StatusTooManyRequests {
		githubRateLimit(&o, r, strings.ToLower(msg), strings.ToLower(doc))
	}
	if r.Status == http.StatusGone && o.VendorCode == "" && githubFeatureDisabled(strings.ToLower(msg)) {
		o.ClassCode = githubFeatureDisabledClass
	}
	return o, true
}

// githubFeatureDisabledClass is the class of a 410 that says a feature of
// the repository is turned off ("Issues are disabled for this repo"): not
// a deleted resource, as 410 says elsewhere, but a setting an admin can
// change, so the state decides, not the identifier.
const githubFeatureDisabledClass = "feature_disabled"

// githubFeatureDisabled reports whether a 410's lower-cased message says
// a feature is turned off rather than a resource deleted.
func githubFeatureDisabled(lowerMsg string) bool {
	return strings.Contains(lowerMsg, " disabled") || strings.Contains(lowerMsg, " not enabled")
}

// githubFirstError reads the first entry of errors[] into o: its code,
// field and resource, and its message appended to the summary ("Validation
// Failed: title is too long"). Entries are objects or, on some endpoints,
// plain strings.
func githubFirstError(o *classify.Outcome, items []json.RawMessage) {
	for _, item := range items {
		if s := textOf(item); s != "" {
			o.Message = githubJoin(o.Message, s)
			return
		}
		e := readObject(item)
		if e == nil {
			continue
		}
		o.VendorCode = e.code("code")
		o.Field = e.str("field")
		setDetail(o, "resource", e.str("resource"))
		o.Message = githubJoin(o.Message, e.str("message"))
		return
	}
}

// githubJoin appends detail to summary.
func githubJoin(summary, detail string) string {
	switch {
	case detail == "":
		return summary
	case summary == "":
		return detail
	}
	return cutText(summary+": "+detail, jsonTextMax)
}

// githubRateLimit marks a 403 or 429 whose message or documentation_url
// names a rate limit. For a secondary limit with neither retry-after nor
// an exhausted primary limit (whose reset the classifier reads), GitHub's
// advice is to wait at least one minute.
func githubRateLimit(o *classify.Outcome, r *Raw, lowerMsg, lowerDoc string) {
	secondary := githubSecondary(lowerMsg, lowerDoc)
	primary := strings.Contains(lowerMsg, "api rate limit exceeded")
	if !secondary && !primary {
		return
	}
	o.Evidence.RateLimited = true
	if !secondary || hasRetryDelay(r) {
		return
	}
	if strings.TrimSpace(canonheader.Value(r.Header, "X-Ratelimit-Remaining")) == "0" {
		if _, ok := classify.ResetDelay(r.Header, responseNow(r), 0); ok {
			return
		}
	}
	o.Delay = githubSecondaryWait
}

// githubSecondary reports whether a 403 or 429 is a secondary rate limit,
// from its lower-cased message and documentation_url. GitHub's REST API
// docs, "Rate limits for the REST API" (docs.github.com), say a secondary
// limit answers 403 or 429 with a message that says so ("You have exceeded
// a secondary rate limit"); its documentation_url points at the section
// about secondary limits (#about-secondary-rate-limits, formerly
// #secondary-rate-limits and, before the rename, #abuse-rate-limits), which
// still names the limit when the message's wording changes.
func githubSecondary(lowerMsg, lowerDoc string) bool {
	return strings.Contains(lowerMsg, "secondary rate limit") ||
		strings.Contains(lowerMsg, "abuse detection") ||
		strings.Contains(lowerDoc, "secondary-rate-limit") ||
		strings.Contains(lowerDoc, "abuse-rate-limit")
}

// githubCodes is GitHub's table: the codes of errors[] entries, which come
// with a 422 and name the field at fault.
var githubCodes = map[string]string{
	"missing":        toolerr.CodeValidationFailed, // a resource the request refers to does not exist
	"missing_field":  toolerr.CodeValidationFailed,
	"invalid":        toolerr.CodeValidationFailed,
	"unprocessable":  toolerr.CodeValidationFailed,
	"custom":         toolerr.CodeValidationFailed,
	"already_exists": toolerr.CodeConflict,
	// A 410 saying a repository feature is off (githubFeatureDisabled):
	// the agent reads the repository's state, it does not drop the id.
	githubFeatureDisabledClass: toolerr.CodePreconditionFailed,
}
