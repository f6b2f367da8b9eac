package unmapped

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"log/slog"
	"net/http"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/internal/leakprobe"
	"github.com/toolerr/toolerr/middleware/sanitize"
)

// floodOffers and floodWorkers size the floods: 100k offers from 8
// goroutines.
const floodOffers, floodWorkers = 100_000, 8

// flood offers n responses from floodWorkers goroutines, the i-th built by
// resp(i), moving clock by step before each, and returns how many were
// sampled.
func flood(s *Sampler, clock *testClock, step time.Duration, n int, resp func(i int) Response) int {
	var wg sync.WaitGroup
	var mu sync.Mutex
	sampled := 0
	for w := range floodWorkers {
		wg.Go(func() {
			mine := 0
			for i := w; i < n; i += floodWorkers {
				clock.Advance(step)
				if s.Offer(context.Background(), resp(i)) {
					mine++
				}
			}
			mu.Lock()
			sampled += mine
			mu.Unlock()
		})
	}
	wg.Wait()
	return sampled
}

// heapInUse returns the live heap after a collection.
func heapInUse() uint64 {
	runtime.GC()
	var m runtime.MemStats
	runtime.ReadMemStats(&m)
	return m.HeapAlloc
}

// TestFloodStaysBounded: 100k unmapped responses from 8 goroutines, half
// of a few pairs and half of pairs never seen before, with bodies and
// vendor names far longer than a sample keeps, leave the ring at its
// capacity, the pair map at its bound and the heap within a ceiling that
// holding any offered body or name would break.
func TestFloodStaysBounded(t *testing.T) {
	clock := newTestClock()
	s := New(WithClock(clock.Now), WithLogger(slog.New(slog.DiscardHandler)), WithSanitizer(sanitize.New(sanitize.WithHostname(""))))
	// The body exists before the first measurement, so what the heap
	// gains is what the sampler holds; a vendor name is new for each
	// offer, so a sampler that held a slice of one would hold all of it.
	body := []byte(strings.Repeat("upstream failed while reading the order table; ", 2000)) // 96 KiB
	pad := strings.Repeat("x", 2<<10)
	header := http.Header{"Content-Type": {"text/plain"}, "X-Request-Id": {strings.Repeat("r", 4<<10)}}
	before := heapInUse()

	sampled := flood(s, clock, time.Millisecond, floodOffers, func(i int) Response {
		r := Response{Status: 500 + i%4, Header: header, Body: body, Code: "UPSTREAM_UNCLASSIFIED"}
		if i%2 == 0 {
			r.Vendor = "stripe" // four pairs, sampled again every minute
		} else {
			r.Vendor, r.Status = fmt.Sprintf("vendor-%06d-", i)+pad, 400+i%97 // pairs beyond the map's bound
		}
		return r
	})

	after := heapInUse()
	runtime.KeepAlive(body)
	// 100 s of clock at 10 samples a second, and a first burst of 10: at
	// most 1010 samples (fewer when the goroutines offering new pairs
	// finish first and the rest offer only suppressed ones).
	assert.LessOrEqual(t, sampled, DefaultRate*(floodOffers/1000+1), "the global rate bounds the samples")
	assert.Greater(t, sampled, DefaultCapacity)
	assert.Equal(t, DefaultCapacity, s.recent.size(), "the ring is at its capacity")
	assert.Len(t, s.Samples(), DefaultCapacity)
	assert.Equal(t, MaxPairs, s.limit.size(), "the pair map is at its bound")
	grown := int64(after) - int64(before)
	// 64 samples of at most 512 body bytes, a few headers and names, and
	// 256 pairs of 64-byte names: well under 256 KiB. The bodies of the
	// ring held as strings would be 6 MiB, the names of the map 512 KiB.
	assert.Less(t, grown, int64(256<<10), "the heap grew by %d bytes", grown)
	t.Logf("heap grew by %d bytes", grown)
	for _, smp := range s.Samples() {
		assert.LessOrEqual(t, len(smp.Body), DefaultBodyBytes)
		assert.LessOrEqual(t, len(smp.Vendor), maxVendorKey)
		assert.LessOrEqual(t, len(smp.Header["X-Request-Id"]), maxHeader)
	}
}

// loggedSample is what the tests read back of a sample's log record.
type loggedSample struct {
	Msg        string `json:"msg"`
	Vendor     string `json:"vendor"`
	Status     int    `json:"upstream_status"`
	Suppressed int    `json:"suppressed"`
}

// readLog decodes the JSON log records in b.
func readLog(t *testing.T, b []byte) []loggedSample {
	t.Helper()
	var out []loggedSample
	sc := bufio.NewScanner(bytes.NewReader(b))
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		var rec loggedSample
		require.NoError(t, json.Unmarshal(sc.Bytes(), &rec), sc.Text())
		out = append(out, rec)
	}
	require.NoError(t, sc.Err())
	return out
}

// TestFloodSuppressedCountsAddUp: under a flood of 16 pairs from 8
// goroutines, every offered response is either logged as a sample or
// counted in the suppressed count of the next sample of its pair. A pair
// may be sampled once a second, 16 a second in all, which the global rate
// of 10 a second cuts further: both limits suppress.
func TestFloodSuppressedCountsAddUp(t *testing.T) {
	clock := newTestClock()
	var logs leakprobe.Buffer
	s := New(WithClock(clock.Now), WithLogger(slog.New(slog.NewJSONHandler(&logs, nil))), WithPairInterval(time.Second))
	const pairs = 16
	// Each goroutine offers every pair in turn (it takes every eighth i),
	// so both limits suppress however the goroutines are scheduled.
	resp := func(i int) Response {
		p := i / floodWorkers % pairs
		return Response{Vendor: fmt.Sprint("vendor-", p%4), Status: 500 + p/4, Body: []byte("boom")}
	}
	offered := map[string]int{}
	for i := range floodOffers {
		r := resp(i)
		offered[fmt.Sprint(r.Vendor, r.Status)]++
	}
	require.Len(t, offered, pairs)
	sampled := flood(s, clock, time.Millisecond, floodOffers, resp)
	require.Greater(t, sampled, 10*pairs, "each pair is sampled many times in 100 s")
	// Flush: once the interval and the bucket allow, one more response of
	// each pair is sampled and carries what was still suppressed.
	clock.Advance(time.Minute)
	for p := range pairs {
		clock.Advance(time.Second)
		r := resp(p * floodWorkers)
		require.True(t, s.Offer(context.Background(), r))
		offered[fmt.Sprint(r.Vendor, r.Status)]++
	}

	recs := readLog(t, logs.Bytes())
	require.Len(t, recs, sampled+pairs, "one record per sample")
	accounted := map[string]int{}
	suppressed := 0
	for _, rec := range recs {
		require.Equal(t, logMessage, rec.Msg)
		accounted[fmt.Sprint(rec.Vendor, rec.Status)] += 1 + rec.Suppressed
		suppressed += rec.Suppressed
	}
	assert.Equal(t, offered, accounted, "per pair, samples plus suppressed counts are the offers")
	assert.Greater(t, suppressed, floodOffers/2, "most of the flood was suppressed")
}
