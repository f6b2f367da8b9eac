package idempotency

import (
	"context"
	"time"
)

// memFailure is a run of failures in a [MemoryStore].
type memFailure struct {
	f       Failures
	expires time.Time
	seq     uint64 // place in the shard's failQueue
}

// Failures implements [FailureCounter.Failures].
func (s *MemoryStore) Failures(ctx context.Context, key string) (Failures, error) {
	if err := ctx.Err(); err != nil {
		return Failures{}, err
	}
	sh := s.shard(key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if f, ok := sh.liveFailure(key, s.now()); ok {
		return f.f, nil
	}
	return Failures{}, nil
}

// AddFailure implements [FailureCounter.AddFailure]. The runs of failures
// are bounded apart from the records, by the same limit of entries per
// shard ([WithMaxEntries]); past it the run that started first is
// dropped, so a call may be refused later than its count says, never
// sooner.
func (s *MemoryStore) AddFailure(ctx context.Context, key, code string, window time.Duration) (Failures, error) {
	if err := ctx.Err(); err != nil {
		return Failures{}, err
	}
	now := s.now()
	sh := s.shard(key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	if f, ok := sh.liveFailure(key, now); ok && f.f.Code == code {
		f.f.Count++
		return f.f, nil
	}
	if sh.failures == nil {
		sh.failures = map[string]*memFailure{}
	}
	if _, ok := sh.failures[key]; !ok {
		for len(sh.failures) >= s.maxRecs && sh.dropFailure() {
		}
	}
	sh.seq++
	f := &memFailure{f: Failures{Code: code, Count: 1, Since: now}, expires: now.Add(window), seq: sh.seq}
	for end := f.expires.UnixNano(); ; {
		old := s.runsEnd.Load()
		if old >= end || s.runsEnd.CompareAndSwap(old, end) {
			break
		}
	}
	sh.failures[key] = f
	sh.failQueue = append(sh.failQueue, queued{key, f.seq})
	if len(sh.failQueue) > 2*len(sh.failures)+16 {
		kept := sh.failQueue[:0:0]
		for _, q := range sh.failQueue {
			if r, ok := sh.failures[q.key]; ok && r.seq == q.seq {
				kept = append(kept, q)
			}
		}
		sh.failQueue = kept
	}
	return f.f, nil
}

// ClearFailures implements [FailureCounter.ClearFailures].
func (s *MemoryStore) ClearFailures(ctx context.Context, key string) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	sh := s.shard(key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	delete(sh.failures, key)
	return nil
}

// liveFailure returns key's run of failures unless it expired (deleting
// it then). The shard's lock must be held.
func (sh *memShard) liveFailure(key string, now time.Time) (*memFailure, bool) {
	f, ok := sh.failures[key]
	if !ok {
		return nil, false
	}
	if !now.Before(f.expires) {
		delete(sh.failures, key)
		return nil, false
	}
	return f, true
}

// dropFailure drops the run of failures that started first, and reports
// whether there was one. The shard's lock must be held.
func (sh *memShard) dropFailure() bool {
	for len(sh.failQueue) > 0 {
		q := sh.failQueue[0]
		sh.failQueue = sh.failQueue[1:]
		if f, ok := sh.failures[q.key]; ok && f.seq == q.seq {
			delete(sh.failures, q.key)
			return true
		}
	}
	return false
}

// MayHaveRuns implements [RunsWatcher]: it reports whether the store may
// hold a live run of failures, that is whether a run was started within
// the window of any run (a run cleared since keeps it true until then).
// The thrash guards take their fast path while it is false.
func (s *MemoryStore) MayHaveRuns() bool {
	return s.now().UnixNano() < s.runsEnd.Load()
}
