// Package storetest is the conformance suite of [idempotency.Store]: every
// implementation (the memory store, the Redis store, a custom one) runs
// [Run] from its own tests, so that they all keep the same contract.
//
// The suite uses real time: leases of 50 ms and retentions of 100 ms that
// it waits out, so a run takes well under a second of wall time per store.
package storetest

import (
	"bytes"
	"crypto/rand"
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/idempotency"
)

// Durations the suite uses. Lease is long enough that a claim does not lapse
// during a subtest that does not wait for it; ShortLease and ShortRetention
// are waited out.
const (
	// Lease is the lease of claims that must not lapse during a subtest.
	Lease = time.Minute
	// Retention is the retention of records that must not expire during a
	// subtest.
	Retention = time.Hour
	// ShortLease is the lease of claims a subtest lets lapse.
	ShortLease = 50 * time.Millisecond
	// ShortRetention is the retention of records a subtest lets expire.
	ShortRetention = 100 * time.Millisecond
	// expiryWait bounds how long the suite waits for a record to expire
	// after its lease or retention ended (stores may expire lazily or with
	// a server-side delay).
	expiryWait = 3 * time.Second
)

// Concurrency is the number of goroutines that claim one key at once in
// the concurrency subtest.
const Concurrency = 200

// Run runs the conformance suite against the stores newStore returns.
//
// Each subtest calls newStore once and uses keys no other subtest uses;
// subtests run in parallel, so newStore must be safe for concurrent use and
// the stores it returns may share a backend (one Redis server, say). A
// store must not be shared with anything that writes the same keys while
// the suite runs.
func Run(t *testing.T, newStore func(t *testing.T) idempotency.Store) {
	t.Helper()
	runCases(t, newStore, cases())
}

// runCases runs each of cases as a parallel subtest on a store of its own.
func runCases(t *testing.T, newStore func(t *testing.T) idempotency.Store, cases []testCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			t.Parallel()
			s := newStore(t)
			require.NotNil(t, s, "newStore returned nil")
			tc.run(t, s)
		})
	}
}

// testCase is one subtest of the suite.
type testCase struct {
	name string
	run  func(t *testing.T, s idempotency.Store)
}

// cases lists the subtests of the suite, in the order they are reported.
func cases() []testCase {
	return []testCase{
		{"claim/first claim succeeds", testFirstClaim},
		{"claim/second claim returns the in-flight record", testSecondClaim},
		{"claim/keys are independent", testIndependentKeys},
		{"claim/completed key returns the completed record", testClaimCompleted},
		{"complete/stores the response byte for byte", testCompleteGet},
		{"complete/wrong token is a lost claim", testCompleteWrongToken},
		{"complete/unknown key is a lost claim", testCompleteUnknownKey},
		{"lease/lapsed lease is taken over with a greater token", testLapsedLease},
		{"lease/lapsed in-flight record is not returned by Get", testLapsedGet},
		{"release/next claim succeeds with a greater token", testRelease},
		{"release/completed record is a lost claim", testReleaseCompleted},
		{"release/wrong token or unknown key is a lost claim", testReleaseWrongToken},
		{"retention/completed record expires", testRetention},
		{"get/missing key", testGetMissing},
		{"context/cancelled context is an error", testCancelled},
		{"concurrency/exactly one of many claims succeeds", testConcurrentClaims},
	}
}

// mustClaim claims key and requires that the claim succeeds.
func mustClaim(t *testing.T, s idempotency.Store, key, fp string, lease time.Duration) uint64 {
	t.Helper()
	c, err := s.Claim(t.Context(), key, fp, lease)
	require.NoError(t, err)
	require.True(t, c.Claimed, "claim of %q must succeed, got existing record %+v", key, c.Existing)
	require.NotZero(t, c.Token, "a claim's fencing token must not be zero")
	return c.Token
}

// mustGet returns the record of key and requires that there is one.
func mustGet(t *testing.T, s idempotency.Store, key string) idempotency.Record {
	t.Helper()
	rec, ok, err := s.Get(t.Context(), key)
	require.NoError(t, err)
	require.True(t, ok, "Get(%q) must find a record", key)
	return rec
}

// requireGone requires that key has no record (now, or soon: within
// expiryWait).
func requireGone(t *testing.T, s idempotency.Store, key string) {
	t.Helper()
	require.Eventually(t, func() bool {
		_, ok, err := s.Get(t.Context(), key)
		return err == nil && !ok
	}, expiryWait, 10*time.Millisecond, "record of %q must be gone", key)
}

// assertResponse asserts that got is want byte for byte. An empty header or
// body may come back nil or empty.
func assertResponse(t *testing.T, want idempotency.Response, got *idempotency.Response) {
	t.Helper()
	require.NotNil(t, got, "a completed record must have a response")
	assert.Equal(t, want.Status, got.Status, "status")
	if len(want.Header) == 0 {
		assert.Empty(t, got.Header, "header")
	} else {
		assert.Equal(t, want.Header, got.Header, "header")
	}
	assert.Equal(t, len(want.Body), len(got.Body), "body length")
	assert.True(t, bytes.Equal(want.Body, got.Body), "body bytes differ")
}

// randomBytes returns n random bytes.
func randomBytes(t *testing.T, n int) []byte {
	t.Helper()
	b := make([]byte, n)
	_, err := rand.Read(b)
	require.NoError(t, err)
	return b
}

// allBytes returns every byte value, twice, including NUL and invalid UTF-8.
func allBytes() []byte {
	b := make([]byte, 0, 512)
	for range 2 {
		for i := range 256 {
			b = append(b, byte(i))
		}
	}
	return b
}

// sampleResponse is a small completed response.
func sampleResponse() idempotency.Response {
	return idempotency.Response{
		Status: http.StatusCreated,
		Header: http.Header{"Content-Type": {"application/json"}, "Location": {"/orders/42"}},
		Body:   []byte(`{"id":42}`),
	}
}
