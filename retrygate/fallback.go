package retrygate

import "github.com/toolerr/toolerr"

// FallbackTools returns the fallback tools the *toolerr.Error in err's
// chain offers (its use_fallback:<tool> actions), in order of preference:
// for an error Do returned, those of the last attempt's error, so that an
// orchestrator that gave up on a tool routes the task to a backup in one
// call. Nil when it offers none, or err holds no *toolerr.Error.
func FallbackTools(err error) []string {
	return toolerr.FallbackTools(err)
}
