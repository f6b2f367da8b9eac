package pgstore

import (
	"context"
	"fmt"
	"time"
)

// Sweep deletes the expired rows of the store's table (InFlight past lease
// plus grace, Completed past retention), one batch of at most
// [WithSweepBatch] rows per statement, until a batch comes back short or
// ctx is done. Each statement has the store's deadline ([WithTimeout]).
// It returns how many rows it deleted, also with an error. Expired rows
// are invisible to the store's methods already: sweeping only reclaims
// their space. Several sweepers may run at once; they skip each other's
// rows.
func (s *Store) Sweep(ctx context.Context) (deleted int64, err error) {
	if s == nil || s.pool == nil {
		return 0, errNoPool
	}
	for {
		if err := ctx.Err(); err != nil {
			return deleted, fmt.Errorf("pgstore: sweep: %w", err)
		}
		n, err := s.sweepBatchOnce(ctx)
		deleted += n
		if err != nil {
			return deleted, fmt.Errorf("pgstore: sweep: %w", err)
		}
		if n < int64(s.sweepBatch) {
			return deleted, nil
		}
	}
}

// sweepBatchOnce deletes one batch of expired rows.
func (s *Store) sweepBatchOnce(ctx context.Context) (int64, error) {
	ctx, cancel := context.WithTimeout(ctx, s.timeout)
	defer cancel()
	tag, err := s.pool.Exec(ctx, s.sql.sweep, s.sweepBatch)
	if err != nil {
		return 0, err
	}
	return tag.RowsAffected(), nil
}

// RunSweeper calls [Store.Sweep] every interval until ctx is done, then
// returns ctx's error. A failed sweep is passed to onError when it is not
// nil (to log it), and the next one runs at the next tick. Start it on a
// goroutine of one or more replicas:
//
//	go func() { _ = store.RunSweeper(ctx, time.Minute, func(err error) { log.Print(err) }) }()
//
// An interval of zero or less is [DefaultSweepInterval] (1 minute).
func (s *Store) RunSweeper(ctx context.Context, interval time.Duration, onError func(error)) error {
	if interval <= 0 {
		interval = DefaultSweepInterval
	}
	tick := time.NewTicker(interval)
	defer tick.Stop()
	for {
		select {
		case <-ctx.Done():
			return ctx.Err()
		case <-tick.C:
			if _, err := s.Sweep(ctx); err != nil && ctx.Err() == nil && onError != nil {
				onError(err)
			}
		}
	}
}
