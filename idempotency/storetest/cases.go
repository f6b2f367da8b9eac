package storetest

import (
	"context"
	"errors"
	"net/http"
	"sync"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/idempotency"
)

// testFirstClaim: the first claim of a key succeeds with a token, and the
// key's record is then InFlight with that token, fingerprint and lease.
func testFirstClaim(t *testing.T, s idempotency.Store) {
	before := time.Now()
	tok := mustClaim(t, s, "first", "fp-1", Lease)
	rec := mustGet(t, s, "first")
	assert.Equal(t, idempotency.InFlight, rec.State)
	assert.Equal(t, "fp-1", rec.Fingerprint)
	assert.Equal(t, tok, rec.Token)
	assert.Nil(t, rec.Response)
	assert.False(t, rec.CreatedAt.IsZero(), "CreatedAt must be set")
	assert.WithinDuration(t, before.Add(Lease), rec.LeaseUntil, 5*time.Second, "LeaseUntil is about now+lease")
}

// testSecondClaim: while the first claim holds, a second claim (whatever its
// fingerprint) does not claim and returns the first claim's record.
func testSecondClaim(t *testing.T, s idempotency.Store) {
	tests := []struct{ name, fp string }{
		{"same fingerprint", "fp-1"},
		{"other fingerprint", "fp-2"},
	}
	tok := mustClaim(t, s, "second", "fp-1", Lease)
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := s.Claim(t.Context(), "second", tt.fp, Lease)
			require.NoError(t, err)
			assert.False(t, c.Claimed)
			assert.Equal(t, idempotency.InFlight, c.Existing.State)
			assert.Equal(t, "fp-1", c.Existing.Fingerprint, "the first claim's fingerprint")
			assert.Equal(t, tok, c.Existing.Token)
			assert.True(t, c.Existing.LeaseUntil.After(time.Now()), "the lease still holds")
		})
	}
}

// testIndependentKeys: claims of different keys do not affect each other.
func testIndependentKeys(t *testing.T, s idempotency.Store) {
	keys := []string{"indep-a", "indep-b", "indep-A", "indep-a ", "indep-{a}:b", "indep-ü\x00\xff"}
	for _, k := range keys {
		mustClaim(t, s, k, "fp-"+k, Lease)
	}
	for _, k := range keys {
		rec := mustGet(t, s, k)
		assert.Equal(t, "fp-"+k, rec.Fingerprint, "key %q", k)
	}
	resp := sampleResponse()
	require.NoError(t, s.Complete(t.Context(), keys[0], mustGet(t, s, keys[0]).Token, resp, Retention))
	assert.Equal(t, idempotency.InFlight, mustGet(t, s, keys[1]).State, "completing a key leaves others alone")
}

// testClaimCompleted: a claim of a completed key returns the completed
// record with its response.
func testClaimCompleted(t *testing.T, s idempotency.Store) {
	tok := mustClaim(t, s, "done", "fp-1", Lease)
	resp := sampleResponse()
	require.NoError(t, s.Complete(t.Context(), "done", tok, resp, Retention))
	c, err := s.Claim(t.Context(), "done", "fp-2", Lease)
	require.NoError(t, err)
	assert.False(t, c.Claimed)
	assert.Equal(t, idempotency.Completed, c.Existing.State)
	assert.Equal(t, "fp-1", c.Existing.Fingerprint)
	assert.Equal(t, tok, c.Existing.Token)
	assertResponse(t, resp, c.Existing.Response)
}

// testCompleteGet: Complete then Get returns the response byte for byte.
func testCompleteGet(t *testing.T, s idempotency.Store) {
	tests := []struct {
		name string
		resp idempotency.Response
	}{
		{"small json", sampleResponse()},
		{"empty body no header", idempotency.Response{Status: http.StatusNoContent}},
		{"empty non-nil body", idempotency.Response{Status: http.StatusOK, Body: []byte{}}},
		{"binary body", idempotency.Response{Status: http.StatusOK, Header: http.Header{"Content-Type": {"application/octet-stream"}}, Body: allBytes()}},
		{"large body", idempotency.Response{Status: http.StatusOK, Body: randomBytes(t, 1<<20)}},
		{"multi-value headers", idempotency.Response{
			Status: http.StatusAccepted,
			Header: http.Header{"Set-Cookie": {"a=1", "b=2"}, "X-Empty": {""}, "X-Unicode": {"ü \"q\" \\ \t"}},
			Body:   []byte("accepted\n"),
		}},
		{"error status", idempotency.Response{Status: http.StatusUnprocessableEntity, Body: []byte(`{"code":"X"}`)}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			key := "complete-" + tt.name
			created := time.Now()
			tok := mustClaim(t, s, key, "fp-"+tt.name, Lease)
			require.NoError(t, s.Complete(t.Context(), key, tok, tt.resp, Retention))
			rec := mustGet(t, s, key)
			assert.Equal(t, idempotency.Completed, rec.State)
			assert.Equal(t, "fp-"+tt.name, rec.Fingerprint)
			assert.Equal(t, tok, rec.Token)
			assert.WithinDuration(t, created, rec.CreatedAt, 5*time.Second)
			assertResponse(t, tt.resp, rec.Response)
		})
	}
}

// testCompleteWrongToken: Complete with a token that does not hold the
// claim fails with ErrLostClaim and leaves the record alone.
func testCompleteWrongToken(t *testing.T, s idempotency.Store) {
	tok := mustClaim(t, s, "wrong", "fp-1", Lease)
	for _, bad := range []uint64{tok + 1, tok - 1, tok + 1000, 0} {
		err := s.Complete(t.Context(), "wrong", bad, sampleResponse(), Retention)
		assert.ErrorIs(t, err, idempotency.ErrLostClaim, "token %d", bad)
	}
	rec := mustGet(t, s, "wrong")
	assert.Equal(t, idempotency.InFlight, rec.State)
	assert.Equal(t, tok, rec.Token)
	require.NoError(t, s.Complete(t.Context(), "wrong", tok, sampleResponse(), Retention), "the right token still completes")
}

// testCompleteUnknownKey: Complete of a key without a record fails with
// ErrLostClaim and creates nothing.
func testCompleteUnknownKey(t *testing.T, s idempotency.Store) {
	err := s.Complete(t.Context(), "never-claimed", 1, sampleResponse(), Retention)
	assert.ErrorIs(t, err, idempotency.ErrLostClaim)
	_, ok, err := s.Get(t.Context(), "never-claimed")
	require.NoError(t, err)
	assert.False(t, ok)
}

// testLapsedLease: once a lease lapses a new claim succeeds with a strictly
// greater token and the first claim's CreatedAt; the old token can then
// neither complete nor release (fencing), while the new one can.
func testLapsedLease(t *testing.T, s idempotency.Store) {
	// Longer than ShortLease: the Get right after the claim must come
	// before the lease lapses, also on a loaded machine and a store that
	// waits for replica acknowledgements (a 50 ms lease could lapse
	// between the two calls there).
	lease := 4 * ShortLease
	old := mustClaim(t, s, "lapse", "fp-old", lease)
	created := mustGet(t, s, "lapse").CreatedAt
	time.Sleep(3 * lease)
	tok := mustClaim(t, s, "lapse", "fp-new", Lease)
	assert.Greater(t, tok, old, "the new token must be greater than the lapsed one")
	rec := mustGet(t, s, "lapse")
	assert.Equal(t, "fp-new", rec.Fingerprint)
	assert.Equal(t, tok, rec.Token)
	assert.True(t, created.Equal(rec.CreatedAt), "CreatedAt of the lapsed claim is kept: %v, got %v", created, rec.CreatedAt)

	assert.ErrorIs(t, s.Complete(t.Context(), "lapse", old, sampleResponse(), Retention), idempotency.ErrLostClaim)
	assert.ErrorIs(t, s.Release(t.Context(), "lapse", old), idempotency.ErrLostClaim)
	rec = mustGet(t, s, "lapse")
	assert.Equal(t, idempotency.InFlight, rec.State, "the late writer changed nothing")
	assert.Equal(t, tok, rec.Token)
	require.NoError(t, s.Complete(t.Context(), "lapse", tok, sampleResponse(), Retention))
}

// testLapsedGet: an InFlight record whose lease lapsed is not returned.
func testLapsedGet(t *testing.T, s idempotency.Store) {
	mustClaim(t, s, "lapsed-get", "fp-1", ShortLease)
	requireGone(t, s, "lapsed-get")
}

// testRelease: Release deletes the claim; the next claim succeeds with a
// greater token, and the released token is lost.
func testRelease(t *testing.T, s idempotency.Store) {
	first := mustClaim(t, s, "rel", "fp-1", Lease)
	require.NoError(t, s.Release(t.Context(), "rel", first))
	_, ok, err := s.Get(t.Context(), "rel")
	require.NoError(t, err)
	assert.False(t, ok, "a released key has no record")

	second := mustClaim(t, s, "rel", "fp-2", Lease)
	assert.Greater(t, second, first, "tokens grow across a Release")
	assert.ErrorIs(t, s.Release(t.Context(), "rel", first), idempotency.ErrLostClaim)
	assert.ErrorIs(t, s.Complete(t.Context(), "rel", first, sampleResponse(), Retention), idempotency.ErrLostClaim)
	assert.Equal(t, second, mustGet(t, s, "rel").Token)

	require.NoError(t, s.Release(t.Context(), "rel", second))
	assert.ErrorIs(t, s.Release(t.Context(), "rel", second), idempotency.ErrLostClaim, "a second Release")
}

// testReleaseCompleted: a completed record cannot be released.
func testReleaseCompleted(t *testing.T, s idempotency.Store) {
	tok := mustClaim(t, s, "rel-done", "fp-1", Lease)
	require.NoError(t, s.Complete(t.Context(), "rel-done", tok, sampleResponse(), Retention))
	assert.ErrorIs(t, s.Release(t.Context(), "rel-done", tok), idempotency.ErrLostClaim)
	rec := mustGet(t, s, "rel-done")
	assert.Equal(t, idempotency.Completed, rec.State)
	assertResponse(t, sampleResponse(), rec.Response)
}

// testReleaseWrongToken: Release with another token, or of a key without a
// record, fails with ErrLostClaim.
func testReleaseWrongToken(t *testing.T, s idempotency.Store) {
	tok := mustClaim(t, s, "rel-wrong", "fp-1", Lease)
	assert.ErrorIs(t, s.Release(t.Context(), "rel-wrong", tok+1), idempotency.ErrLostClaim)
	assert.Equal(t, tok, mustGet(t, s, "rel-wrong").Token, "the claim still holds")
	assert.ErrorIs(t, s.Release(t.Context(), "rel-missing", 1), idempotency.ErrLostClaim)
}

// testRetention: a completed record disappears after its retention, then
// the key can be claimed again, with a greater token.
func testRetention(t *testing.T, s idempotency.Store) {
	tok := mustClaim(t, s, "retain", "fp-1", Lease)
	start := time.Now() // the retention starts later, on the store's clock
	require.NoError(t, s.Complete(t.Context(), "retain", tok, sampleResponse(), ShortRetention))
	rec, ok, err := s.Get(t.Context(), "retain")
	require.NoError(t, err)
	if elapsed := time.Since(start); elapsed < ShortRetention {
		require.True(t, ok, "kept during its retention")
		assert.Equal(t, idempotency.Completed, rec.State)
	} else {
		// A loaded machine took the whole retention between the calls:
		// the record may rightly be gone already.
		t.Logf("Complete and Get took %v, the whole retention: not checked that the record was kept", elapsed)
	}
	requireGone(t, s, "retain")
	next := mustClaim(t, s, "retain", "fp-2", Lease)
	assert.Greater(t, next, tok, "tokens grow after the record expired")
}

// testGetMissing: Get of a key without a record is ok=false, no error.
func testGetMissing(t *testing.T, s idempotency.Store) {
	rec, ok, err := s.Get(t.Context(), "missing")
	require.NoError(t, err)
	assert.False(t, ok)
	assert.Zero(t, rec.State)
}

// testCancelled: every method returns an error on a cancelled context,
// without panicking.
func testCancelled(t *testing.T, s idempotency.Store) {
	tok := mustClaim(t, s, "cancel", "fp-1", Lease)
	cctx, cancel := context.WithCancel(t.Context())
	cancel()
	calls := []struct {
		name string
		call func() error
	}{
		{"Claim", func() error { _, err := s.Claim(cctx, "cancel-2", "fp", Lease); return err }},
		{"Complete", func() error { return s.Complete(cctx, "cancel", tok, sampleResponse(), Retention) }},
		{"Release", func() error { return s.Release(cctx, "cancel", tok) }},
		{"Get", func() error { _, _, err := s.Get(cctx, "cancel"); return err }},
	}
	for _, c := range calls {
		t.Run(c.name, func(t *testing.T) {
			var err error
			require.NotPanics(t, func() { err = c.call() })
			require.Error(t, err)
			assert.False(t, errors.Is(err, idempotency.ErrLostClaim), "a cancelled call is not a lost claim: %v", err)
		})
	}
}

// testConcurrentClaims: of Concurrency goroutines claiming one key at once,
// exactly one claims it; every other sees the winner's InFlight record.
func testConcurrentClaims(t *testing.T, s idempotency.Store) {
	type result struct {
		claim idempotency.Claim
		err   error
	}
	results := make([]result, Concurrency)
	start := make(chan struct{})
	var wg sync.WaitGroup
	for i := range Concurrency {
		wg.Go(func() {
			<-start
			c, err := s.Claim(t.Context(), "race", "fp-race", Lease)
			results[i] = result{c, err}
		})
	}
	close(start)
	wg.Wait()

	var winners []uint64
	for _, r := range results {
		require.NoError(t, r.err)
		if r.claim.Claimed {
			winners = append(winners, r.claim.Token)
		}
	}
	require.Len(t, winners, 1, "exactly one claim must succeed")
	for _, r := range results {
		if !r.claim.Claimed {
			assert.Equal(t, idempotency.InFlight, r.claim.Existing.State)
			assert.Equal(t, winners[0], r.claim.Existing.Token)
		}
	}
}
