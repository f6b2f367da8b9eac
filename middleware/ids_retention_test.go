package middleware

import (
	"net/http"
	"net/http/httptest"
	"runtime"
	"sync/atomic"
	"testing"
	"time"

	"github.com/toolerr/toolerr"
)

// TestKeptRequestIDDoesNotKeepTheRequestState: an id kept after the
// request (as an idempotency record or a log buffer keeps it) must not
// keep the request's recorder, and the writer and contexts it points to,
// alive. The id is made without an allocation of its own; it must live in
// memory of its own, not in the recorder's.
func TestKeptRequestIDDoesNotKeepTheRequestState(t *testing.T) {
	var kept string
	var freed atomic.Bool
	h := New(WithLogger(quiet))(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		kept = toolerr.RequestID(r.Context())
		runtime.AddCleanup(recorderFrom(r.Context()), func(*atomic.Bool) { freed.Store(true) }, &freed)
		w.WriteHeader(http.StatusNoContent)
	}))
	h.ServeHTTP(httptest.NewRecorder(), httptest.NewRequest("GET", "/", nil))
	if !toolerr.ValidRequestID(kept) {
		t.Fatalf("no request id: %q", kept)
	}
	deadline := time.Now().Add(5 * time.Second)
	for !freed.Load() && time.Now().Before(deadline) {
		runtime.GC()
		time.Sleep(10 * time.Millisecond)
	}
	if !freed.Load() {
		t.Fatalf("the recorder is still alive while the request id %q is kept", kept)
	}
	runtime.KeepAlive(kept)
}
