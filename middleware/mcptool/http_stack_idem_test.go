package mcptool_test

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"math/rand/v2"
	"net/http"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// hsKeyed returns the headers of a keyed call by principal (no
// Authorization when principal is "").
func hsKeyed(key, principal string) http.Header {
	h := http.Header{"Idempotency-Key": {key}, "Content-Type": {"application/json"}}
	if principal != "" {
		h.Set("Authorization", "Bearer "+principal)
	}
	return h
}

// hsProblem decodes an error answer.
func hsProblem(t *testing.T, res hsResult) map[string]any {
	t.Helper()
	var p map[string]any
	require.NoError(t, json.Unmarshal(res.body, &p), "%s", res.body)
	return p
}

// hsRandom returns n deterministic random bytes (invalid UTF-8 included).
func hsRandom(n int) []byte {
	b := make([]byte, n)
	_, _ = rand.NewChaCha8([32]byte{7}).Read(b)
	return b
}

// TestHTTPStackRetriedMutationRunsOnce tries to make a mutation run twice,
// or two callers share one, through the whole stack: concurrent retries
// with one key, numbers that only differ past 2^53, anonymous callers, and
// a keyless body larger than the duplicate guard reads.
func TestHTTPStackRetriedMutationRunsOnce(t *testing.T) {
	rig := newHSRig(t)
	body := []byte(`{"to":"ord_8f3a2b91","kg":2.5}`)

	t.Run("50 concurrent identical keyed POSTs", func(t *testing.T) {
		const n = 50
		results, errs := make([]hsResult, n), make([]error, n)
		start := make(chan struct{})
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				<-start
				results[i], errs[i] = rig.send("/tools/create_label", body, hsKeyed("k-burst", "agent-1"))
			})
		}
		close(start)
		wg.Wait()
		for _, err := range errs {
			require.NoError(t, err)
		}
		assert.EqualValues(t, 1, rig.counter("k-burst").Load(), "the handler ran once")
		var first []hsResult
		ids := map[string]bool{}
		for _, res := range results {
			id := res.header.Get("X-Request-Id")
			assert.Equal(t, res.chiID, id, "each answer has its own request's id")
			assert.False(t, ids[id], "request id %s given twice", id)
			ids[id] = true
			switch {
			case res.status == http.StatusCreated && res.header.Get("Idempotent-Replayed") == "":
				first = append(first, res)
			case res.status == http.StatusCreated:
				assert.Equal(t, "true", res.header.Get("Idempotent-Replayed"))
			case res.status == http.StatusConflict:
				p := hsProblem(t, res)
				assert.Equal(t, toolerr.CodeIdempotencyInProgress, p["code"])
				assert.Equal(t, id, p["request_id"])
				assert.NotEmpty(t, res.header.Get("Retry-After"))
			default:
				t.Errorf("unexpected answer %d: %s", res.status, res.body)
			}
		}
		require.Len(t, first, 1, "exactly one answer is the execution")
		for _, res := range results {
			if res.status == http.StatusCreated {
				assert.Equal(t, string(first[0].body), string(res.body), "a replay is the first answer")
			}
		}
		again := rig.do(t, "/tools/create_label", body, hsKeyed("k-burst", "agent-1"))
		assert.Equal(t, http.StatusCreated, again.status)
		assert.Equal(t, "true", again.header.Get("Idempotent-Replayed"))
		assert.Equal(t, string(first[0].body), string(again.body))
		hsAssertOurID(t, again, nil)
		assert.NotEqual(t, first[0].header.Get("X-Request-Id"), again.header.Get("X-Request-Id"),
			"a replay does not carry the first request's id")
		assert.EqualValues(t, 1, rig.counter("k-burst").Load())
	})

	big, bigNext := []byte(`{"account":`+hsBig+`}`), []byte(`{"account":`+hsBigNext+`}`)
	t.Run("numbers differing past 2^53 under two keys both run", func(t *testing.T) {
		r1 := rig.do(t, "/tools/create_label", big, hsKeyed("k-big-1", "agent-1"))
		r2 := rig.do(t, "/tools/create_label", bigNext, hsKeyed("k-big-2", "agent-1"))
		for _, r := range []hsResult{r1, r2} {
			assert.Equal(t, http.StatusCreated, r.status, "%s", r.body)
			assert.Empty(t, r.header.Get("Idempotent-Replayed"))
		}
		assert.EqualValues(t, 1, rig.counter("k-big-1").Load())
		assert.EqualValues(t, 1, rig.counter("k-big-2").Load())
		assert.Equal(t, big, rig.seenBy(t, r1).body)
		assert.Equal(t, bigNext, rig.seenBy(t, r2).body)
	})

	t.Run("number differing past 2^53 under the same key is not a replay", func(t *testing.T) {
		res := rig.do(t, "/tools/create_label", bigNext, hsKeyed("k-big-1", "agent-1"))
		p := rig.assertErrorExits(t, res)
		hsAssertOurID(t, res, p)
		assert.Equal(t, http.StatusUnprocessableEntity, res.status)
		assert.Equal(t, toolerr.CodeIdempotencyKeyReused, p["code"])
		assert.EqualValues(t, 1, rig.counter("k-big-1").Load())
	})

	t.Run("two anonymous callers with one key never share a replay", func(t *testing.T) {
		for range 2 {
			res := rig.do(t, "/tools/create_label", body, hsKeyed("k-anon", ""))
			assert.Equal(t, http.StatusUnauthorized, res.status, "%s", res.body)
			assert.Equal(t, toolerr.CodeUnauthenticated, hsProblem(t, res)["code"])
			assert.Empty(t, res.header.Get("Idempotent-Replayed"))
		}
		assert.EqualValues(t, 0, rig.counter("k-anon").Load())
	})

	t.Run("an anonymous caller never gets an authenticated caller's replay", func(t *testing.T) {
		owner := rig.do(t, "/tools/create_label", body, hsKeyed("k-shared", "agent-1"))
		require.Equal(t, http.StatusCreated, owner.status)
		anon := rig.do(t, "/tools/create_label", body, hsKeyed("k-shared", ""))
		assert.Equal(t, http.StatusUnauthorized, anon.status)
		assert.Empty(t, anon.header.Get("Idempotent-Replayed"))
		assert.NotContains(t, string(anon.body), "L-1")
		other := rig.do(t, "/tools/create_label", body, hsKeyed("k-shared", "agent-2"))
		assert.Equal(t, http.StatusCreated, other.status)
		assert.Empty(t, other.header.Get("Idempotent-Replayed"), "another principal's key is another record")
		assert.EqualValues(t, 2, rig.counter("k-shared").Load())
	})

	t.Run("the duplicate guard is on the keyless tool's path", func(t *testing.T) {
		auth := http.Header{"Authorization": {"Bearer agent-1"}}
		first := rig.do(t, "/tools/send_message", []byte(`{"text":"hello","to":"ord_8f3a2b91"}`), auth)
		require.Equal(t, http.StatusOK, first.status, "%s", first.body)
		dup := rig.do(t, "/tools/send_message", []byte(`{ "to":"ord_8f3a2b91", "text":"hello" }`), auth)
		p := rig.assertErrorExits(t, dup)
		hsAssertOurID(t, dup, p)
		assert.Equal(t, toolerr.CodeDuplicateAction, p["code"])
		details, _ := p["details"].(map[string]any)
		assert.Equal(t, first.header.Get("X-Request-Id"), details["first_request_id"])
		assert.EqualValues(t, 1, rig.counter("send_message").Load())
	})

	t.Run("a keyless 5 MB POST through the duplicate guard arrives whole", func(t *testing.T) {
		payload := hsRandom(5 << 20)
		sum := sha256.Sum256(payload)
		for _, principal := range []string{"agent-1", ""} {
			h := http.Header{"Content-Type": {"application/octet-stream"}}
			if principal != "" {
				h.Set("Authorization", "Bearer "+principal)
			}
			res := rig.do(t, "/tools/send_message", payload, h)
			require.Equal(t, http.StatusOK, res.status, "%s", res.body)
			var got struct {
				Sum   string `json:"sha256"`
				Bytes int    `json:"bytes"`
			}
			require.NoError(t, json.Unmarshal(res.body, &got))
			assert.Equal(t, len(payload), got.Bytes, "principal %q", principal)
			assert.Equal(t, hex.EncodeToString(sum[:]), got.Sum, "principal %q", principal)
		}
	})

	t.Run("every log record and span of the service", rig.sweep)
}

// TestHTTPStackHandlerReceivesWhatWasSent checks that no layer (otelhttp,
// chi, toolerr's middleware, idempotency, the duplicate guard) changes
// the bytes or headers a tool handler reads, at the read limits too.
func TestHTTPStackHandlerReceivesWhatWasSent(t *testing.T) {
	rig := newHSRig(t)
	sent := func(key string) http.Header {
		return http.Header{
			"Idempotency-Key": {key},
			"Authorization":   {"Bearer agent-1"},
			"Content-Type":    {"application/json; charset=utf-8"},
			"X-Custom":        {"one", "two"},
			"Traceparent":     {"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"},
		}
	}
	assertReceived := func(t *testing.T, res hsResult, body []byte, header http.Header) {
		t.Helper()
		seen := rig.seenBy(t, res)
		assert.Equal(t, len(body), len(seen.body))
		assert.True(t, string(body) == string(seen.body), "the handler read other bytes")
		for k, v := range header {
			assert.Equal(t, v, seen.header.Values(k), "header %s", k)
		}
	}

	t.Run("non-canonical JSON under a key", func(t *testing.T) {
		body := []byte("{ \"b\" : 1.0,\n\t\"a\":\"caf\\u00e9 café\", \"id\": " + hsBig + " }")
		h := sent("idem-7f3c9e21-4b6d-4a8e-b1f0-2d5c8e9a7b13")
		res := rig.do(t, "/tools/create_label", body, h)
		require.Equal(t, http.StatusCreated, res.status, "%s", res.body)
		assertReceived(t, res, body, h)
	})

	t.Run("invalid UTF-8 JSON through the duplicate guard", func(t *testing.T) {
		body := []byte("{\"text\":\"caf\xe9 \xff\xfe\", \"n\": 1e0}")
		h := http.Header{"Authorization": {"Bearer agent-1"}, "X-Custom": {"one", "two"}}
		res := rig.do(t, "/tools/send_message", body, h)
		require.Equal(t, http.StatusOK, res.status, "%s", res.body)
		assertReceived(t, res, body, h)
	})

	t.Run("keyed body of exactly the 1 MiB read limit", func(t *testing.T) {
		body := hsRandom(1 << 20)
		h := sent("k-limit")
		res := rig.do(t, "/tools/create_label", body, h)
		require.Equal(t, http.StatusCreated, res.status, "%s", res.body)
		assertReceived(t, res, body, h)
	})

	t.Run("keyed body one byte over the limit is refused, not cut", func(t *testing.T) {
		res := rig.do(t, "/tools/create_label", hsRandom(1<<20+1), sent("k-over"))
		p := rig.assertErrorExits(t, res)
		assert.Equal(t, toolerr.CodePayloadTooLarge, p["code"])
		assert.EqualValues(t, 0, rig.counter("k-over").Load(), "the handler never saw a cut body")
	})
}
