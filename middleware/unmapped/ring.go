package unmapped

import "sync"

// ring keeps the most recent samples, at most its capacity; a new one
// replaces the oldest.
type ring struct {
	mu   sync.Mutex
	buf  []Sample
	next int // where the next sample goes once buf is full
}

func newRing(capacity int) *ring {
	return &ring{buf: make([]Sample, 0, capacity)}
}

// add keeps smp, dropping the oldest sample when the ring is full.
func (r *ring) add(smp Sample) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if len(r.buf) < cap(r.buf) {
		r.buf = append(r.buf, smp)
		return
	}
	r.buf[r.next] = smp
	r.next = (r.next + 1) % len(r.buf)
}

// newestFirst returns copies of the samples, newest first.
func (r *ring) newestFirst() []Sample {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([]Sample, 0, len(r.buf))
	// The newest is just before next (or last, while the ring fills).
	newest := len(r.buf) - 1
	if len(r.buf) == cap(r.buf) {
		newest = (r.next - 1 + len(r.buf)) % len(r.buf)
	}
	for i := range len(r.buf) {
		out = append(out, r.buf[(newest-i+len(r.buf))%len(r.buf)].clone())
	}
	return out
}

// size returns how many samples the ring holds.
func (r *ring) size() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return len(r.buf)
}
