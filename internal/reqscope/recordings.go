package reqscope

import "context"

// RecordIntent records in, a toolerr.Intent, as how far the operation
// under way in the request of ctx has got, replacing the previous record.
// Without a request scope it does nothing, and allocates nothing.
func RecordIntent[I any](ctx context.Context, in I) {
	s := of(ctx)
	if s == nil {
		return
	}
	p := new(I)
	*p = in
	s.rec.setIntent(p)
}

// ClearIntent clears the intent recorded for the request of ctx.
func ClearIntent(ctx context.Context) {
	if s := of(ctx); s != nil {
		s.rec.setIntent(nil)
	}
}

// setIntent replaces the recorded intent, a *toolerr.Intent or nil.
func (r *recordings) setIntent(in any) {
	r.mu.Lock()
	r.intent = in
	r.mu.Unlock()
}

// RecordedIntent returns the last intent recorded with [RecordIntent] for
// the request of ctx, I being the type recorded (toolerr.Intent).
func RecordedIntent[I any](ctx context.Context) (I, bool) {
	var zero I
	s := of(ctx)
	if s == nil {
		return zero, false
	}
	s.rec.mu.Lock()
	defer s.rec.mu.Unlock()
	in, ok := s.rec.intent.(*I)
	if !ok {
		return zero, false
	}
	return *in, true
}

// RecordVendor names the downstream vendor ("stripe") whose response the
// handler is about to relay. Without a request scope it does nothing.
func RecordVendor(ctx context.Context, vendor string) {
	s := of(ctx)
	if s == nil {
		return
	}
	s.rec.mu.Lock()
	s.rec.vendor = vendor
	s.rec.mu.Unlock()
}

// RecordedVendor returns the vendor named with [RecordVendor], or "".
func RecordedVendor(ctx context.Context) string {
	s := of(ctx)
	if s == nil {
		return ""
	}
	s.rec.mu.Lock()
	defer s.rec.mu.Unlock()
	return s.rec.vendor
}

// RecordWritten notes e, a *toolerr.Error, as rendered for the request of
// ctx, and calls the function [OnNextWritten] registered, if any, with it.
// toolerr.Write calls it.
func RecordWritten[E any](ctx context.Context, e E) {
	s := of(ctx)
	if s == nil {
		return
	}
	s.rec.mu.Lock()
	s.rec.written = e
	next := s.rec.next
	s.rec.next = nil
	s.rec.mu.Unlock()
	if f, ok := next.(func(E)); ok {
		f(e)
	}
}

// Written returns the error toolerr.Write last rendered for the request of
// ctx, with its Go cause, or the zero E (nil); E is *toolerr.Error. The
// middleware uses it to log and count an error that a handler wrote
// itself, without parsing the body back.
func Written[E any](ctx context.Context) E {
	var zero E
	s := of(ctx)
	if s == nil {
		return zero
	}
	s.rec.mu.Lock()
	defer s.rec.mu.Unlock()
	if e, ok := s.rec.written.(E); ok {
		return e
	}
	return zero
}

// OnNextWritten arranges for f to be called, once, with the next error
// toolerr.Write renders for the request of ctx (E is *toolerr.Error), from
// the goroutine that calls Write, before the body is sent. It is for
// middleware mounted inside the toolerr middleware that must learn how a
// request failed when the failure is rendered after it returned: a raw
// error response the middleware translates, an error a framework adapter
// reported with middleware.ReportError. A later call replaces an earlier f
// that has not run yet. It reports false, and does nothing, when ctx
// carries no request scope (no toolerr middleware serves the request, and
// no [New]).
//
// f runs at most once, for one request: a rendering of the request made
// after the one f saw does not reach it.
func OnNextWritten[E any](ctx context.Context, f func(E)) bool {
	s := of(ctx)
	if s == nil || f == nil {
		return false
	}
	s.rec.mu.Lock()
	s.rec.next = f
	s.rec.mu.Unlock()
	return true
}
