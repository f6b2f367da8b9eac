package idempotency

import (
	"context"
	"net/http"
	"sync/atomic"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// The store deadline of these tests, and the bound of an answer: generous
// against scheduling on a loaded machine, far below the 1.7 s (and more)
// that a store call without its own deadline took.
const (
	testStoreTimeout = 200 * time.Millisecond
	answerBound      = time.Second
)

// ownTimeout is how long a hungStore call takes unless unblocked: the
// read timeout of a go-redis client on its defaults.
const ownTimeout = 3 * time.Second

// hungStore is a Store that ignores its context: every call blocks until
// unblock is closed or ownTimeout passed (as a client stuck dialling or
// reading on its own timeouts), then Claim claims with token 7 and the
// others succeed. Releases counts Release calls that got through.
type hungStore struct {
	unblock  chan struct{}
	hang     map[string]bool // the methods that hang; all when nil
	releases atomic.Int32
}

func (s *hungStore) wait(method string) {
	if s.hang == nil || s.hang[method] {
		select {
		case <-s.unblock:
		case <-time.After(ownTimeout):
		}
	}
}

func (s *hungStore) Claim(context.Context, string, string, time.Duration) (Claim, error) {
	s.wait("Claim")
	return Claim{Claimed: true, Token: 7}, nil
}
func (s *hungStore) Complete(context.Context, string, uint64, Response, time.Duration) error {
	s.wait("Complete")
	return nil
}
func (s *hungStore) Release(context.Context, string, uint64) error {
	s.wait("Release")
	s.releases.Add(1)
	return nil
}
func (s *hungStore) Get(context.Context, string) (Record, bool, error) {
	s.wait("Get")
	return Record{}, false, nil
}

// TestHungStoreAnswersWithinItsDeadline is the reported break: a store that
// does not answer held tool calls for as long as its client's own timeouts.
// With a store deadline, Middleware fails closed (or open) and
// DuplicateGuard lets the call through, within the deadline plus slack.
func TestHungStoreAnswersWithinItsDeadline(t *testing.T) {
	tests := []struct {
		name   string
		mw     func(Store) func(http.Handler) http.Handler
		key    string
		status int
		runs   int32
	}{
		{"middleware fails closed", func(s Store) func(http.Handler) http.Handler {
			return newMW(s, WithStoreTimeout(testStoreTimeout))
		}, "k-1", 503, 0},
		{"middleware fails open", func(s Store) func(http.Handler) http.Handler {
			return newMW(s, WithStoreTimeout(testStoreTimeout), FailOpen())
		}, "k-1", 201, 1},
		{"guard lets the call through", func(s Store) func(http.Handler) http.Handler {
			return DuplicateGuard(s, WithStoreTimeout(testStoreTimeout), WithLogger(quiet))
		}, "", 201, 1},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			store := &hungStore{unblock: make(chan struct{})}
			defer close(store.unblock)
			tool := &labelTool{}
			h := tt.mw(store)(tool)
			start := time.Now()
			rec := call(h, tt.key, "Bearer a", `{"to":"Oslo"}`)
			elapsed := time.Since(start)
			assert.Equal(t, tt.status, rec.Code)
			if tt.status == 503 {
				assert.Equal(t, toolerr.CodeIdempotencyUnavailable, code(t, rec))
			}
			assert.Less(t, elapsed, answerBound, "answered within the deadline plus slack")
			assert.GreaterOrEqual(t, elapsed, testStoreTimeout/2, "waited for the store first")
			assert.Equal(t, tt.runs, tool.runs.Load())
		})
	}
}

// TestHungCompleteDoesNotHoldTheAnswer: a store that hangs when the
// response is stored delays the handler's return by at most the deadline.
func TestHungCompleteDoesNotHoldTheAnswer(t *testing.T) {
	store := &hungStore{unblock: make(chan struct{}), hang: map[string]bool{"Complete": true}}
	defer close(store.unblock)
	h := newMW(store, WithStoreTimeout(testStoreTimeout))(&labelTool{})
	start := time.Now()
	assert.Equal(t, 201, call(h, "k-1", "Bearer a", `{}`).Code)
	assert.Less(t, time.Since(start), answerBound)
}

// TestLateClaimIsReleased: a claim that succeeds after the middleware
// stopped waiting is released, so the key's retry is not refused as in
// progress until the lease lapses.
func TestLateClaimIsReleased(t *testing.T) {
	store := &hungStore{unblock: make(chan struct{}), hang: map[string]bool{"Claim": true}}
	h := newMW(store, WithStoreTimeout(testStoreTimeout))(&labelTool{})
	assert.Equal(t, 503, call(h, "k-1", "Bearer a", `{}`).Code)
	assert.Zero(t, store.releases.Load())
	close(store.unblock) // the claim lands now
	assert.Eventually(t, func() bool { return store.releases.Load() == 1 }, 5*time.Second, time.Millisecond)
}

// panicStore panics when it claims.
type panicStore struct{ failingStore }

func (panicStore) Claim(context.Context, string, string, time.Duration) (Claim, error) {
	panic("store bug")
}

// TestStorePanicIsAnError: a store that panics on the middleware's
// goroutine for it fails closed instead of ending the process.
func TestStorePanicIsAnError(t *testing.T) {
	tool := &labelTool{}
	h := newMW(panicStore{}, WithStoreTimeout(testStoreTimeout))(tool)
	assert.Equal(t, 503, call(h, "k-1", "Bearer a", `{}`).Code)
	assert.Zero(t, tool.runs.Load())
}

// TestStoreTimeoutOption checks the default and that values below 1 keep
// it; a MemoryStore is called directly, others through the deadline.
func TestStoreTimeoutOption(t *testing.T) {
	assert.Equal(t, DefaultStoreTimeout, newConfig(nil).storeTimeout)
	assert.Equal(t, DefaultStoreTimeout, newConfig([]Option{WithStoreTimeout(0)}).storeTimeout)
	assert.Equal(t, time.Second, newConfig([]Option{WithStoreTimeout(time.Second)}).storeTimeout)
	mem := NewMemoryStore()
	assert.Same(t, mem, bound(mem, time.Second).(*MemoryStore))
	b, ok := bound(failingStore{}, time.Second).(boundedStore)
	require.True(t, ok)
	assert.Equal(t, time.Second, b.timeout)
}
