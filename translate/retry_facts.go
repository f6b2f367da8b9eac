package translate

import (
	"net/http"
	"strings"
	"time"

	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// The facts of a request and its response that decide a retry, as the
// vendor translators read them: whether repeating the request is safe, the
// server's clock, and whether a header already gives the delay.

// idempotentMethod reports whether RFC 9110 defines method as idempotent;
// the empty method is GET.
func idempotentMethod(method string) bool {
	switch strings.ToUpper(method) {
	case "", http.MethodGet, http.MethodHead, http.MethodOptions, http.MethodTrace,
		http.MethodPut, http.MethodDelete:
		return true
	}
	return false
}

// idempotentRequest reports whether a retry of r's request cannot repeat a
// side effect: an idempotent method, or an idempotency key.
func idempotentRequest(r *Raw) bool {
	return r.Idempotent || idempotentMethod(r.Method)
}

// unknownOutcomeAdvice returns the retry advice for a vendor's "the server
// failed" code (an internal error, a deadline): the request may have been
// processed before the failure, so a retry is safe only for an idempotent
// request.
func unknownOutcomeAdvice(r *Raw) classify.RetryAdvice {
	if idempotentRequest(r) {
		return classify.AdviceNone
	}
	return classify.AdviceDoNotRetry
}

// hasRetryDelay reports whether the response carries a retry-after header
// the classifier reads (it then wins, and a translator sets no Delay of its
// own).
func hasRetryDelay(r *Raw) bool {
	_, ok := classify.RetryDelay(r.Header, responseNow(r), 0)
	return ok
}

// responseNow is the response's own clock: its Date header when it parses,
// so that absolute reset instants are read against the server's time; else
// the local clock.
func responseNow(r *Raw) time.Time {
	if d := canonheader.Value(r.Header, "Date"); d != "" {
		if t, err := http.ParseTime(d); err == nil {
			return t
		}
	}
	return time.Now()
}
