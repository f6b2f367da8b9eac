package retrygate

import (
	"errors"
	"strconv"

	"github.com/toolerr/toolerr"
)

// Error is the failure Do returns: the last attempt's error and how many
// attempts were made. Err is the operation's own error, or
// RETRY_BUDGET_EXHAUSTED whose Go cause is that error when the budget stopped
// the retries; errors.As and toolerr.From find the *toolerr.Error inside.
type Error struct {
	// Attempts is the number of attempts made, the first included.
	Attempts int
	// Err is the error that ended the call.
	Err error
}

// Error returns "retrygate: N attempts: <err>".
func (e *Error) Error() string {
	if e == nil {
		return "<nil>"
	}
	msg := "<nil>"
	if e.Err != nil {
		msg = e.Err.Error()
	}
	return "retrygate: " + strconv.Itoa(e.Attempts) + " attempts: " + msg
}

// Unwrap returns Err.
func (e *Error) Unwrap() error {
	if e == nil {
		return nil
	}
	return e.Err
}

// Attempts returns the attempt count of an error Do returned (an *Error
// anywhere in err's chain). Without one it returns the attempts a retrying
// HTTP client made for the *toolerr.Error in err's chain
// (upstream.attempts, set when translate built it from a response of
// [Transport], and kept on the wire), and 0 when neither is known, as for
// nil.
func Attempts(err error) int {
	var e *Error
	if errors.As(err, &e) && e != nil {
		return e.Attempts
	}
	if te, ok := toolerr.From(err); ok && te.Upstream != nil {
		return te.Upstream.Attempts
	}
	return 0
}
