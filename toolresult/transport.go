package toolresult

import (
	"context"
	"errors"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// classifier is the classifier of Go errors, built once on first use:
// immutable after New, and safe for concurrent use.
var classifier = sync.OnceValue(func() *classify.Classifier { return classify.New(toolerr.Default()) })

// fromGoError returns the error of a Go error that carries no
// *toolerr.Error: a failure to reach the tool, as package classify's
// Go-error rules read it, put in the tool's terms; else INTERNAL_ERROR
// with the text of err left out.
//
// The rules are classify's, through [classify.Classifier.HandlerError]:
// with evidence of a network call (a *url.Error of an http.Client, a
// *net.OpError, a TLS error) a refused connection, a dropped one and a
// timeout are transient, a host name that does not resolve and a TLS
// failure are not retryable, a cancelled context is CANCELLED; without,
// the error is the tool's own (a deadline is TOOL_TIMEOUT, anything else
// INTERNAL_ERROR).
//
// What the agent called is the tool, so a failure to reach it, blamed on
// no vendor, is said in the tool's terms: UPSTREAM_UNAVAILABLE becomes
// TOOL_UNAVAILABLE, UPSTREAM_TIMEOUT becomes TOOL_TIMEOUT, and the detail
// names the tool, not a downstream service. UPSTREAM_MISCONFIGURED (a
// host name that does not resolve, a TLS certificate not trusted) stays:
// it is not retryable and asks for the operator, as such a failure does.
// An error a typed SDK error explains (an upstream vendor is named) is
// left as classify built it.
//
// method and idempotent (the call carried an idempotency key) decide
// whether a timeout or a dropped connection may be retried: the call may
// have run.
func fromGoError(err error, method string, idempotent bool) *toolerr.Error {
	e, ok := classifier().HandlerError(context.Background(), err, method, idempotent)
	if !ok || e == nil {
		return toolerr.Default().New(toolerr.CodeInternal, "").WithCause(err)
	}
	if e.Upstream != nil {
		return e
	}
	code := e.Code
	switch code {
	case toolerr.CodeUpstreamUnavailable:
		code = toolerr.CodeToolUnavailable
	case toolerr.CodeUpstreamTimeout:
		code = toolerr.CodeToolTimeout
	}
	detail := toolTerms.Replace(e.Detail)
	if code == e.Code && detail == e.Detail {
		return e
	}
	out := toolerr.Default().NewCause(code, detail, err)
	out.Retryable = e.Retryable
	out.RetryAfter = e.RetryAfter
	if code == toolerr.CodeToolUnavailable && !out.Retryable {
		// The definition's hint says to retry, which is true only when
		// nothing was sent: here the connection dropped after the call
		// went out, and a call that is not idempotent may have run.
		out.Hint = "Do not repeat the call as is: the connection dropped after it was sent, so it may have run. Read the resource's state first, then decide whether to call again."
	}
	return out
}

// toolTerms rewrites classify's details, which speak of the downstream
// service a tool server calls, for the agent, whose downstream is the tool.
var toolTerms = strings.NewReplacer(
	"downstream service's", "tool's",
	"downstream service", "tool",
	"downstream host name", "tool's host name",
)

// callMethod returns the HTTP method of the call that failed with err, from
// the *url.Error of net/http's client (whose Op is the method, such as
// "Post"); "POST" when unknown, so that an outcome that may have taken
// effect is not called retryable on a guess.
func callMethod(err error) string {
	var ue *url.Error
	if errors.As(err, &ue) {
		if m := strings.ToUpper(ue.Op); validMethod(m) {
			return m
		}
	}
	return http.MethodPost
}

// validMethod reports whether m is one of the methods of RFC 9110 (and
// PATCH).
func validMethod(m string) bool {
	switch m {
	case http.MethodGet, http.MethodHead, http.MethodPost, http.MethodPut, http.MethodPatch,
		http.MethodDelete, http.MethodConnect, http.MethodOptions, http.MethodTrace:
		return true
	}
	return false
}
