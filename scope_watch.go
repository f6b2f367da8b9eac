package toolerr

import "context"

// OnNextWrittenError arranges for f to be called, once, with the next
// error [Write] renders for the request of ctx, from the goroutine that
// calls Write, before the body is sent. It is for middleware mounted
// inside the toolerr middleware that must learn how a request failed
// when the failure is rendered after it returned: a raw error response
// the middleware translates, an error a framework adapter reported with
// middleware.ReportError. A later call replaces an earlier f that has not
// run yet. It reports false, and does nothing, when ctx carries no request
// scope (no toolerr middleware serves the request, and no
// [NewRequestContext]).
//
// f runs at most once, for one request: a rendering of the request made
// after the one f saw does not reach it.
func OnNextWrittenError(ctx context.Context, f func(*Error)) bool {
	s := scopeOf(ctx)
	if s == nil || f == nil {
		return false
	}
	s.rec.mu.Lock()
	s.rec.next = f
	s.rec.mu.Unlock()
	return true
}
