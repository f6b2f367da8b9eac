package toolresult

import "github.com/toolerr/toolerr"

// FallbackTools returns the fallback tools r's failure offers (its
// use_fallback:<tool> actions), in order of preference: the tools a Go
// orchestrator may call in place of the one that failed. Nil on success
// and when the failure offers none.
func (r Result) FallbackTools() []string {
	if r.Err == nil {
		return nil
	}
	return toolerr.FallbackTools(r.Err)
}
