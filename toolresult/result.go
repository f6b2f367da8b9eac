package toolresult

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/textcut"
	"github.com/toolerr/toolerr/translate"
)

// MaxBody is the most of a response body [FromResponse] reads; a longer
// successful body is cut, at a rune boundary, and says so.
const MaxBody = 1 << 20

// Result is one tool call's outcome as a model receives it.
type Result struct {
	// Text is what the model reads: the tool's output on success, the
	// error's observation on failure.
	Text string
	// IsError reports a failed call.
	IsError bool
	// Err is the failure, nil on success. It is for the runtime's own
	// decisions (retryable, retry_after_ms) and is never shown as is.
	Err *toolerr.Error
}

// FromError returns the Result of a tool call that returned err: a success
// for nil, else the observation of the *toolerr.Error in err's chain.
//
// Any other error is classified (see package classify's Go-error rules):
// a failure to reach the tool is said as such. A refused connection is
// TOOL_UNAVAILABLE, retryable; a connection dropped after the call was
// sent is TOOL_UNAVAILABLE and a timeout (the client's, or the context's
// deadline) TOOL_TIMEOUT, both retryable when the call's method is
// idempotent (GET, PUT, DELETE…), since a POST may have run; a host name
// that does not resolve and a TLS failure are UPSTREAM_MISCONFIGURED, not
// retryable (they will not pass by themselves); a cancelled context is
// CANCELLED. Anything else is INTERNAL_ERROR. The text of err never
// reaches Text: the details are fixed sentences that name no host.
//
// The method of the call is read from the *url.Error of net/http's
// client; without one, or to count an idempotency key, use
// [FromRequestError].
func FromError(err error) Result {
	return fromCall(err, callMethod(err), false)
}

// FromRequestError is [FromError] for the error an HTTP client returned
// for req, the call of a tool: req's method, and whether it carries an
// Idempotency-Key header, decide whether a timeout or a connection dropped
// after the call was sent may be retried. A POST with a key is retried as
// safely as a GET; without one it may have run, and is not retryable. A
// nil req is FromError(err).
func FromRequestError(req *http.Request, err error) Result {
	if req == nil {
		return FromError(err)
	}
	method := req.Method
	if method == "" {
		method = http.MethodGet
	}
	return fromCall(err, method, req.Header.Get("Idempotency-Key") != "")
}

// fromCall is the Result of err, a failed call with the given method.
func fromCall(err error, method string, idempotent bool) Result {
	if err == nil {
		return Result{}
	}
	e, ok := toolerr.From(err)
	if !ok {
		e = fromGoError(err, method, idempotent)
	}
	return Result{Text: e.Observation(), IsError: true, Err: e}
}

// FromResponse reads resp (at most [MaxBody] bytes of its body) and
// closes its body. A status below 400 is a success whose text is the
// body.
//
// A failure is read in every rendering toolerr serves: problem+json and
// the envelope (toolerr.Parse), and the observation a text/plain or
// text/markdown response carries ([ParseObservation], recognised
// strictly). Its status is the response's; a request id or a delay the
// body lacks is taken from X-Request-Id and Retry-After (or the
// retry-after family classify.RetryDelay reads). Any other failure, an
// HTML gateway page say, is classified by translate.Response, whose
// default classifier sanitizes the vendor's text. Every string of a parsed
// error is sanitized too: the body is untrusted.
//
// Text is the plain observation of the error, rendered from it
// (toolerr.Error.Observation): one deterministic form whatever rendering
// the server chose, holding only members that were recognised and
// sanitized. For toolerr's own text/plain response it is the text the
// server sent; for its Markdown, the same members in plain text. An error
// is returned only when the body cannot be read.
func FromResponse(resp *http.Response) (Result, error) {
	if resp == nil || resp.Body == nil {
		return Result{}, errors.New("toolresult: no response body")
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 {
		body, err := io.ReadAll(io.LimitReader(resp.Body, int64(toolerr.MaxBodyLen)+1))
		if err != nil {
			return Result{}, fmt.Errorf("toolresult: reading the error body: %w", err)
		}
		if e, ok := parseRendering(resp, body); ok {
			return Result{Text: e.Observation(), IsError: true, Err: e}, nil
		}
		resp.Body = io.NopCloser(bytes.NewReader(body))
		err = translate.Response(resp)
		if err == nil {
			err = toolerr.Default().New(toolerr.CodeInternal, "")
		}
		r := FromError(err)
		if e := withoutOwnCodeLine(r.Err); e != r.Err {
			r.Err, r.Text = e, e.Observation()
		}
		return r, nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, MaxBody+1))
	if err != nil {
		return Result{}, fmt.Errorf("toolresult: reading the body: %w", err)
	}
	text := string(body)
	if len(body) > MaxBody {
		text = string(textcut.AtRune(body, MaxBody)) + "\n[output cut at 1 MiB]"
	}
	return Result{Text: text}, nil
}
