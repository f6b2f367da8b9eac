package redisstore

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/redis/go-redis/v9"

	"github.com/toolerr/toolerr/idempotency"
)

var _ idempotency.RunsWatcher = (*Store)(nil)

// RunsChannel is the Redis pub/sub channel, under the store's key
// prefix (prefix+RunsChannel), on which AddFailure announces how long
// the run it counted lives.
const RunsChannel = "thrash-runs"

// runsMargin is added to every announced run's remaining lifetime. The
// announcement carries a duration measured by the server (the run key's
// PTTL), and each store adds it to its own monotonic clock when it
// receives it, so the clocks of the replicas and of the server never
// meet: the margin covers rounding and clock-rate drift, with room.
const runsMargin = time.Second

// WithRunsGrace sets how long a store assumes that a run of failures may
// be live after it starts listening to the announcements of the other
// replicas, and again after each reconnection of that subscription: a
// run announced while it was not listening may still be live that long.
// Set it to the longest window (idempotency.WithThrashWindow) of the
// guards sharing the store. Default: idempotency.DefaultThrashWindow (10
// minutes). Negative values keep the default.
func WithRunsGrace(d time.Duration) Option {
	return func(s *Store) {
		if d >= 0 {
			s.runs.grace = min(d, maxDuration)
		}
	}
}

// runsWatch is a store's view of the runs of failures live in Redis,
// kept from the announcements on the runs channel (runs_watch.go, see
// [Store.MayHaveRuns]). Times are nanoseconds of a monotonic clock since
// base.
type runsWatch struct {
	channel string
	grace   time.Duration
	base    time.Time

	liveUntil atomic.Int64 // a run may be live until then
	listening atomic.Bool  // subscribed, and the subscription confirmed
	started   atomic.Bool
	refused   atomic.Bool // the server refused to publish (ACL): watch no more

	mu     sync.Mutex
	closed bool
	pubsub *redis.PubSub
	done   chan struct{} // closed when the subscriber has returned
}

// newRunsWatch returns the watch of a store, not listening yet.
func newRunsWatch() *runsWatch {
	return &runsWatch{grace: idempotency.DefaultThrashWindow, base: time.Now()}
}

// MayHaveRuns implements [idempotency.RunsWatcher]: false means that no
// run of failures counted through any store over the same server and key
// prefix can be live, so the thrash guard runs the call without looking
// it up. It never blocks and does no I/O.
//
// Every AddFailure announces, in the same script, how long the run it
// counted lives, on a pub/sub channel under the key prefix
// ([RunsChannel]); every store listens there, from its first call of
// MayHaveRuns (a goroutine, ended by [Store.Close]), and keeps the latest
// end announced, plus a margin of one second. The announcement carries
// the run key's remaining lifetime by the server's clock, which each
// store adds to its own monotonic clock when it receives it: clock skew
// between replicas and server plays no part, and a late delivery only
// lengthens it.
//
// MayHaveRuns reports true, so that the guard looks the call up in
// Redis:
//
//   - until the store's subscription is confirmed, and for the grace
//     period ([WithRunsGrace], 10 minutes by default) after it is, and
//     after every re-subscription following a lost connection: a run
//     announced while the store was not listening may still be live;
//   - while a run announced on the channel, or counted by this store,
//     may be live;
//   - after [Store.Close], or once the server refused a publication or
//     the subscription (an ACL user needs access to the channel).
//
// It fails open: a failure counted on another replica is known here once
// its announcement arrives (about a round trip), and the calls in
// between, or in the moment between a lost subscription connection and
// its re-subscription (at once when the connection is closed; up to
// go-redis's health check, about 8 seconds, when it silently stops
// answering), run without the lookup. A run of failures is refused from
// its next announcement or the re-subscription on.
func (s *Store) MayHaveRuns() bool {
	if s == nil || s.client == nil {
		return true
	}
	w := s.runs
	if !w.listening.Load() {
		if !w.started.Load() {
			w.start(s.client)
		}
		return true
	}
	return w.refused.Load() || w.now() < w.liveUntil.Load()
}

// Close stops the store listening to the announcements of runs of
// failures (see [Store.MayHaveRuns]) and waits for its goroutine to
// return; the store may still be used, and looks every call up from
// then on. It does not close the client. Close the store before the
// client. Safe to call more than once.
func (s *Store) Close() error {
	if s == nil || s.runs == nil {
		return nil
	}
	w := s.runs
	w.mu.Lock()
	w.closed = true
	ps, done := w.pubsub, w.done
	w.pubsub = nil
	w.mu.Unlock()
	w.listening.Store(false)
	var err error
	if ps != nil {
		if err = ps.Close(); errors.Is(err, redis.ErrClosed) {
			err = nil // the subscriber closed it as the client closed
		}
	}
	if done != nil {
		<-done
	}
	return err
}

// start starts the subscriber, once, unless the watch is closed.
func (w *runsWatch) start(client redis.UniversalClient) {
	w.mu.Lock()
	defer w.mu.Unlock()
	if w.closed || w.started.Load() {
		return
	}
	w.started.Store(true)
	w.done = make(chan struct{})
	go w.listen(client)
}

// listen subscribes to the runs channel and notes what it hears until
// the subscription or the client is closed: a confirmed subscription (the first one,
// or one renewed after a reconnection) opens the grace period, an
// announcement the run it names.
func (w *runsWatch) listen(client redis.UniversalClient) {
	defer close(w.done)
	ps := client.Subscribe(context.Background(), w.channel)
	w.mu.Lock()
	if w.closed {
		w.mu.Unlock()
		_ = ps.Close()
		return
	}
	w.pubsub = ps
	w.mu.Unlock()
	for msg := range ps.ChannelWithSubscriptions() {
		switch m := msg.(type) {
		case *redis.Subscription:
			if m.Kind == "subscribe" && m.Channel == w.channel {
				w.note(w.grace)
				w.listening.Store(true)
			}
		case *redis.Message:
			w.note(announced(m.Payload, w.grace))
		}
	}
	// The client was closed: close the subscription too, which ends
	// go-redis's health check of it.
	w.listening.Store(false)
	w.mu.Lock()
	w.pubsub = nil
	w.mu.Unlock()
	_ = ps.Close()
}

// announced returns the remaining lifetime of a run an announcement
// names (decimal milliseconds), plus the margin; what does not parse
// counts as the grace period.
func announced(payload string, grace time.Duration) time.Duration {
	ms, err := strconv.ParseInt(payload, 10, 64)
	if err != nil || ms < 0 || ms > maxDuration.Milliseconds() {
		return grace
	}
	return time.Duration(ms)*time.Millisecond + runsMargin
}

// counted notes the run this store's AddFailure counted, which lives ttl
// more milliseconds, at once (the announcement reaches the other
// stores); published 0 means the server refused to announce it, and this
// store stops trusting its view: no other store can hear of its runs.
func (w *runsWatch) counted(ttl, published any) {
	if n, ok := published.(int64); !ok || n != 1 {
		w.refused.Store(true)
	}
	w.note(announced(str(ttl), w.grace))
}

// note records that a run may be live for d from now.
func (w *runsWatch) note(d time.Duration) {
	end := w.now() + int64(d)
	for {
		old := w.liveUntil.Load()
		if old >= end || w.liveUntil.CompareAndSwap(old, end) {
			return
		}
	}
}

// now is the watch's monotonic clock.
func (w *runsWatch) now() int64 { return int64(time.Since(w.base)) }
