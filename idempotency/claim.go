package idempotency

import (
	"context"
	"errors"
	"log/slog"
	"time"
)

// settled is what a claim of a key comes to: the claim (claimed, with its
// fencing token), the record that holds the key (found), or the store's
// error.
type settled struct {
	claimed bool
	token   uint64
	found   Record
	err     error
}

// settle claims key for a request with fingerprint fp. When the key is in
// flight for the same fingerprint and the configuration lets it wait
// ([WithWait]), it waits once for that request: its completed record is
// found, and a key it released is claimed again. [Middleware] and
// [ToolCalls] answer from what it returns.
func (m *keyed) settle(ctx context.Context, key, fp string) settled {
	mayWait := m.cfg.wait > 0
	for {
		c, err := m.store.Claim(ctx, key, fp, m.cfg.lease)
		if err != nil {
			return settled{err: err}
		}
		if c.Claimed {
			return settled{claimed: true, token: c.Token}
		}
		rec := c.Existing
		if rec.State == InFlight && rec.Fingerprint == fp && mayWait {
			mayWait = false
			done, ok := m.waitFor(ctx, key)
			switch {
			case ok:
				rec = done
			case done.State == 0:
				continue // the first request released the key: claim it
			}
		}
		return settled{found: rec}
	}
}

// waitFor polls key until its request completes, for at most the
// configured wait. ok is true with the completed record; false with a zero
// record when the key was released, else false.
func (m *keyed) waitFor(ctx context.Context, key string) (Record, bool) {
	ctx, cancel := context.WithTimeout(ctx, m.cfg.wait)
	defer cancel()
	tick := time.NewTicker(min(m.cfg.wait/10+time.Millisecond, 50*time.Millisecond))
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return Record{State: InFlight}, false
		case <-tick.C:
		}
		rec, ok, err := m.store.Get(ctx, key)
		switch {
		case err != nil:
			m.cfg.metrics.storeFailed(ctx, opGet, false, err)
			return Record{State: InFlight}, false
		case !ok:
			return Record{}, false
		case rec.State == Completed:
			return rec, true
		}
	}
}

// release drops the claim, logging why when there is a reason worth one.
func (m *keyed) release(ctx context.Context, key string, token uint64, why string) {
	if why != "" {
		m.cfg.logger.Warn("toolerr: idempotency key released: " + why)
	}
	if err := m.store.Release(ctx, key, token); err != nil && !errors.Is(err, ErrLostClaim) {
		m.cfg.metrics.storeFailed(ctx, opRelease, false, err)
		m.cfg.logger.Warn("toolerr: idempotency key not released; it lapses with its lease", slog.Any("error", err))
	}
}

// complete stores resp for the claim of token, with a log line when the
// store could not keep it: a retry may then run again.
func (m *keyed) complete(ctx context.Context, key string, token uint64, resp Response) {
	if err := m.store.Complete(ctx, key, token, resp, m.cfg.retention); err != nil {
		m.cfg.metrics.storeFailed(ctx, opComplete, false, err)
		m.cfg.logger.Warn("toolerr: the idempotency record was not completed, or not durably; a retry may run the request again", slog.Any("error", err))
	}
}
