package idempotency

// RunsWatcher is an optional interface of a [FailureCounter] that knows,
// without a round trip, when it holds no run of failures at all.
// [ThrashGuard] and [ThrashCalls] ask it before each call: while
// MayHaveRuns reports false, no call can be refused, so the call runs at
// once, keyed and counted only if it fails, and a success costs no lookup
// (see [ThrashGuard] for what the HTTP guard still keeps of a call). A
// counter that does not implement it is looked up before every call.
//
// The [MemoryStore] implements it exactly: false until a failure is
// counted, and again once the window of the latest run has passed. The
// Redis store (package redisstore) implements it with a view of the runs
// announced by every replica, kept current over Redis pub/sub.
//
// MayHaveRuns must be cheap (no I/O, no blocking) and safe for concurrent
// use. false is a promise: no run of failures that could refuse a call
// is live in the store. An implementation in doubt (not listening yet,
// closed, reconnecting) reports true, which only costs the lookup.
type RunsWatcher interface {
	// MayHaveRuns reports whether a run of failures may be live in the
	// store; false means none is.
	MayHaveRuns() bool
}

var _ RunsWatcher = (*MemoryStore)(nil)

// watcher returns c's RunsWatcher, or nil when it has none.
func watcher(c FailureCounter) RunsWatcher {
	w, _ := c.(RunsWatcher)
	return w
}
