package idempotency

import (
	"context"
	"fmt"
	"net/http"
	"sync"
	"sync/atomic"
	"time"
)

// Defaults of a [MemoryStore].
const (
	// DefaultMaxEntries bounds the records a MemoryStore keeps.
	DefaultMaxEntries = 100_000
	// DefaultMaxBytes bounds the bytes of stored responses and keys.
	DefaultMaxBytes = 256 << 20
)

// memShards is the number of independently locked parts of a MemoryStore:
// requests with different keys rarely wait for each other.
const memShards = 64

// recordOverhead approximates a record's bytes beyond its key, fingerprint,
// headers and body.
const recordOverhead = 160

// MemoryStore is the in-process [Store]: for a single replica, for tests,
// and the default of [Middleware]. Several replicas need a shared store
// (package redisstore).
//
// It is bounded, per shard: each of its 64 shards holds 1/64 of the entry
// and byte limits. Past a limit the oldest completed records of the shard
// are dropped first (expired ones are also dropped on access), then claims
// whose lease lapsed, oldest first; so size the limits for the retention and
// request rate, or a retry after an eviction runs again. An in-flight claim
// is never dropped: when a shard holds nothing else, Claim fails with
// [ErrStoreFull], which [Middleware] answers with IDEMPOTENCY_UNAVAILABLE,
// rather than letting a retry run while the first execution still runs.
// A shard may exceed its byte limit by the one response being completed.
// It is safe for concurrent use.
type MemoryStore struct {
	shards  [memShards]memShard
	maxRecs int // per shard
	maxSize int // per shard, bytes
	now     func() time.Time
	tokens  atomic.Uint64 // one counter for all keys: tokens only grow
	// runsEnd is the latest end of the window of a run of failures,
	// in Unix ns: before it a run may be live (memory_failures.go).
	runsEnd atomic.Int64
}

type memShard struct {
	mu      sync.Mutex
	records map[string]*memRecord
	// done holds the Completed records in completion order and claims the
	// InFlight ones in claim order, for eviction. An entry whose seq is not
	// its key's record's seq is stale: the record was completed, released,
	// replaced or dropped since.
	done   []queued
	claims []queued
	seq    uint64
	size   int
	// failures are the runs of failures of FailureCounter, bounded apart
	// from the records; failQueue holds them in the order their runs
	// started, for eviction (memory_failures.go).
	failures  map[string]*memFailure
	failQueue []queued
}

// queued is a record's place in one of its shard's eviction queues.
type queued struct {
	key string
	seq uint64
}

type memRecord struct {
	rec     Record
	expires time.Time // Completed: end of retention
	size    int
	seq     uint64 // place in the shard's queues
}

// MemoryOption configures a [MemoryStore].
type MemoryOption func(*MemoryStore)

// WithMaxEntries bounds the number of records: each of the 64 shards keeps
// at most n/64 (at least 1). Default: [DefaultMaxEntries] (100,000). Values
// below 1 keep the default.
func WithMaxEntries(n int) MemoryOption {
	return func(s *MemoryStore) {
		if n > 0 {
			s.maxRecs = max(n/memShards, 1)
		}
	}
}

// WithMaxBytes bounds the bytes of stored keys, fingerprints and
// responses: each of the 64 shards keeps about n/64. Default:
// [DefaultMaxBytes] (256 MiB). Values below 1 keep the default.
func WithMaxBytes(n int) MemoryOption {
	return func(s *MemoryStore) {
		if n > 0 {
			s.maxSize = max(n/memShards, 1)
		}
	}
}

// WithClock sets the store's clock, for tests. Default: time.Now.
func WithClock(now func() time.Time) MemoryOption {
	return func(s *MemoryStore) {
		if now != nil {
			s.now = now
		}
	}
}

// NewMemoryStore returns an empty MemoryStore.
func NewMemoryStore(opts ...MemoryOption) *MemoryStore {
	s := &MemoryStore{maxRecs: DefaultMaxEntries / memShards, maxSize: DefaultMaxBytes / memShards, now: time.Now}
	for _, o := range opts {
		o(s)
	}
	for i := range s.shards {
		s.shards[i].records = map[string]*memRecord{}
	}
	return s
}

// shard returns the shard of key (FNV-1a).
func (s *MemoryStore) shard(key string) *memShard {
	h := uint32(2166136261)
	for i := 0; i < len(key); i++ {
		h ^= uint32(key[i])
		h *= 16777619
	}
	return &s.shards[h%memShards]
}

// live returns key's record unless it has expired (deleting it then).
// The shard's lock must be held.
func (sh *memShard) live(key string, now time.Time) (*memRecord, bool) {
	r, ok := sh.records[key]
	if !ok {
		return nil, false
	}
	if r.rec.State == Completed && !now.Before(r.expires) || r.rec.State == InFlight && !now.Before(r.rec.LeaseUntil) {
		sh.remove(key, r)
		return nil, false
	}
	return r, true
}

// claimed returns key's record when token holds its InFlight claim. The
// shard's lock must be held.
func (sh *memShard) claimed(key string, token uint64) (*memRecord, bool) {
	r, ok := sh.records[key]
	return r, ok && r.rec.Token == token && r.rec.State == InFlight
}

// remove deletes key's record. The shard's lock must be held.
func (sh *memShard) remove(key string, r *memRecord) {
	delete(sh.records, key)
	sh.size -= r.size
}

// Claim implements [Store.Claim]. When the key's shard is at its bounds
// and only live in-flight claims are left to drop, it refuses with an error
// wrapping [ErrStoreFull].
func (s *MemoryStore) Claim(ctx context.Context, key, fp string, lease time.Duration) (Claim, error) {
	if err := ctx.Err(); err != nil {
		return Claim{}, err
	}
	now := s.now()
	sh := s.shard(key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	created := now
	if old, ok := sh.records[key]; ok {
		if r, live := sh.live(key, now); live {
			return Claim{Existing: r.rec}, nil
		}
		if old.rec.State == InFlight {
			created = old.rec.CreatedAt // a lapsed claim taken over
		}
	}
	size := recordOverhead + len(key) + len(fp)
	if !s.makeRoom(sh, now, 1, size) && len(sh.records) > 0 {
		return Claim{}, fmt.Errorf("%w: %d claims in flight fill the shard", ErrStoreFull, len(sh.records))
	}
	token := s.tokens.Add(1)
	r := &memRecord{rec: Record{Fingerprint: fp, State: InFlight, Token: token, LeaseUntil: now.Add(lease), CreatedAt: created}}
	r.size = size
	sh.seq++
	r.seq = sh.seq
	sh.records[key] = r
	sh.claims = append(sh.claims, queued{key, r.seq})
	sh.size += r.size
	sh.compact()
	return Claim{Claimed: true, Token: token}, nil
}

// Complete implements [Store.Complete]. The store keeps its own copy of
// resp. It makes room by dropping older completed records and lapsed
// claims; it never drops the record it completes.
func (s *MemoryStore) Complete(ctx context.Context, key string, token uint64, resp Response, retention time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	now := s.now()
	sh := s.shard(key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	r, ok := sh.claimed(key, token)
	if !ok {
		return ErrLostClaim
	}
	stored := Response{Status: resp.Status, Header: resp.Header.Clone(), Body: append([]byte(nil), resp.Body...)}
	size := recordOverhead + len(key) + len(r.rec.Fingerprint) + len(stored.Body) + headerSize(stored.Header)
	sh.size += size - r.size
	r.size = size
	r.rec.State = Completed
	r.rec.Response = &stored
	r.expires = now.Add(retention)
	sh.seq++
	r.seq = sh.seq // its claims entry is stale now: not droppable until queued below
	s.makeRoom(sh, now, 0, 0)
	sh.done = append(sh.done, queued{key, r.seq})
	sh.compact()
	return nil
}

// Release implements [Store.Release].
func (s *MemoryStore) Release(ctx context.Context, key string, token uint64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	sh := s.shard(key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	r, ok := sh.claimed(key, token)
	if !ok {
		return ErrLostClaim
	}
	sh.remove(key, r)
	return nil
}

// Get implements [Store.Get]. The returned record shares the stored body:
// callers must not modify it.
func (s *MemoryStore) Get(ctx context.Context, key string) (Record, bool, error) {
	if err := ctx.Err(); err != nil {
		return Record{}, false, err
	}
	sh := s.shard(key)
	sh.mu.Lock()
	defer sh.mu.Unlock()
	r, ok := sh.live(key, s.now())
	if !ok {
		return Record{}, false, nil
	}
	return r.rec, true, nil
}

// makeRoom drops records until the shard has room for recs more records
// of size more bytes, and reports whether it has. The shard's lock must be
// held.
func (s *MemoryStore) makeRoom(sh *memShard, now time.Time, recs, size int) bool {
	for len(sh.records)+recs > s.maxRecs || sh.size+size > s.maxSize {
		if !sh.dropOne(now) {
			return false
		}
	}
	return true
}

// dropOne drops the oldest completed record, else the oldest claim if its
// lease lapsed, and reports whether it dropped one. A live claim is never
// dropped: its request is running, and a retry must not run it again. The
// shard's lock must be held.
func (sh *memShard) dropOne(now time.Time) bool {
	for len(sh.done) > 0 {
		q := sh.done[0]
		sh.done = sh.done[1:]
		if r, ok := sh.records[q.key]; ok && r.seq == q.seq {
			sh.remove(q.key, r)
			return true
		}
	}
	for len(sh.claims) > 0 {
		q := sh.claims[0]
		r, ok := sh.records[q.key]
		if ok && r.seq == q.seq && now.Before(r.rec.LeaseUntil) {
			return false // the oldest claim still holds its lease
		}
		sh.claims = sh.claims[1:]
		if ok && r.seq == q.seq {
			sh.remove(q.key, r)
			return true
		}
	}
	return false
}

// compact drops the stale entries of the shard's queues when they are the
// majority, so that the queues stay bounded by the live records. The
// shard's lock must be held.
func (sh *memShard) compact() {
	if len(sh.done)+len(sh.claims) <= 2*len(sh.records)+16 {
		return
	}
	fresh := func(qs []queued) []queued {
		kept := make([]queued, 0, len(qs))
		for _, q := range qs {
			if r, ok := sh.records[q.key]; ok && r.seq == q.seq {
				kept = append(kept, q)
			}
		}
		return kept
	}
	sh.done, sh.claims = fresh(sh.done), fresh(sh.claims)
}

// headerSize approximates the bytes of h.
func headerSize(h http.Header) int {
	n := 0
	for k, vs := range h {
		n += len(k)
		for _, v := range vs {
			n += len(v) + 4
		}
	}
	return n
}
