package toolerrmcpgo

import (
	"errors"
	"strings"
)

// recoveredPanic reports whether err is the error mcp-go's
// server.WithRecovery makes of a panic in the handler of tool, when that
// middleware sits inside the adapter's: "panic recovered in <tool> tool
// handler: <value>", a plain error that wraps nothing. It returns the
// panic value's text, which goes to the log only.
//
// The tool name is the call's own, so a name that holds the words
// " tool handler: " cannot shift where the value starts. An error that
// wraps another (fmt.Errorf with %w) is a handler's, whatever its text.
func recoveredPanic(err error, tool string) (value string, ok bool) {
	if err == nil || errors.Unwrap(err) != nil {
		return "", false
	}
	if _, joined := err.(interface{ Unwrap() []error }); joined {
		return "", false
	}
	const before, after = "panic recovered in ", " tool handler: "
	msg := err.Error()
	rest, found := strings.CutPrefix(msg, before)
	if !found {
		return "", false
	}
	return strings.CutPrefix(rest, tool+after)
}
