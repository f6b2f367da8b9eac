package idempotency

import (
	"context"
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
// It is bounded: past its entry or byte limit the oldest records of a
// shard are dropped first (expired ones are dropped on access), so size
// the limits for the retention and request rate, or a retry after an
// eviction runs again. It is sharded, and safe for concurrent use.
type MemoryStore struct {
	shards  [memShards]memShard
	maxRecs int // per shard
	maxSize int // per shard, bytes
	now     func() time.Time
	tokens  atomic.Uint64 // one counter for all keys: tokens only grow
}

type memShard struct {
	mu      sync.Mutex
	records map[string]*memRecord
	order   []queued // records in insertion order, for eviction; may hold stale entries
	seq     uint64
	size    int
}

// queued is a record's place in its shard's eviction order; an entry whose
// seq is not its key's record's seq is stale.
type queued struct {
	key string
	seq uint64
}

type memRecord struct {
	rec     Record
	expires time.Time // Completed: end of retention
	size    int
	seq     uint64 // insertion order in the shard
}

// MemoryOption configures a [MemoryStore].
type MemoryOption func(*MemoryStore)

// WithMaxEntries bounds the number of records. Default: [DefaultMaxEntries]
// (100,000). Values below 1 keep the default.
func WithMaxEntries(n int) MemoryOption {
	return func(s *MemoryStore) {
		if n > 0 {
			s.maxRecs = max(n/memShards, 1)
		}
	}
}

// WithMaxBytes bounds the bytes of stored keys, fingerprints and
// responses. Default: [DefaultMaxBytes] (256 MiB). Values below 1 keep the
// default.
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

// Claim implements [Store.Claim].
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
	token := s.tokens.Add(1)
	r := &memRecord{rec: Record{Fingerprint: fp, State: InFlight, Token: token, LeaseUntil: now.Add(lease), CreatedAt: created}}
	r.size = recordOverhead + len(key) + len(fp)
	sh.seq++
	r.seq = sh.seq
	sh.records[key] = r
	sh.order = append(sh.order, queued{key, r.seq})
	sh.size += r.size
	s.evict(sh, key)
	return Claim{Claimed: true, Token: token}, nil
}

// Complete implements [Store.Complete]. The store keeps its own copy of
// resp.
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
	s.evict(sh, key)
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

// evict drops the shard's oldest records until it is within its bounds,
// never the record of keep. The shard's lock must be held.
func (s *MemoryStore) evict(sh *memShard, keep string) {
	for (len(sh.records) > s.maxRecs || sh.size > s.maxSize) && len(sh.order) > 0 {
		q := sh.order[0]
		r, ok := sh.records[q.key]
		if ok && q.key == keep && r.seq == q.seq {
			if len(sh.records) == 1 {
				return // only the record being written is left
			}
			sh.order = append(sh.order[1:], q) // keep it; evict the next oldest
			continue
		}
		sh.order = sh.order[1:]
		if ok && r.seq == q.seq {
			sh.remove(q.key, r)
		}
	}
	// Entries of deleted or replaced records linger in order; compact it
	// when they are the majority, so it stays bounded by the live records.
	if len(sh.order) > 2*len(sh.records)+16 {
		kept := make([]queued, 0, len(sh.records))
		for _, q := range sh.order {
			if r, ok := sh.records[q.key]; ok && r.seq == q.seq {
				kept = append(kept, q)
			}
		}
		sh.order = kept
	}
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
