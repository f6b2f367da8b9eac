package idempotency

import (
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/go-chi/chi/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/internal/docpage"
)

// accountHandler answers which account it acted on, from chi's {id}.
func accountHandler(runs *atomic.Int32) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		runs.Add(1)
		w.WriteHeader(http.StatusCreated)
		_, _ = io.WriteString(w, "debited account "+chi.URLParam(r, "id"))
	})
}

// TestAdversarialChiPathParamsNeverMerge breaks promise 2 ("distinct
// requests never merge") for every service routed by chi.
//
// Input: the middleware mounted on a chi route with a path parameter,
// r.With(mw).Post("/accounts/{id}/transfer", h) (or r.Use(mw) inside
// r.Route("/accounts/{id}", ...)); the same principal sends
// POST /accounts/1/transfer and then POST /accounts/2/transfer, both with
// Idempotency-Key: k-1 and body {"amount":100} (an agent that reuses a
// key across accounts, or derives it from the arguments without the
// path, as Key(session, tool, args) invites).
//
// What happens: the default tool is chi's route pattern, the same
// "/accounts/{id}/transfer" for both, and the default fingerprint hashes
// the method, that tool and the body, never the path: the store key and
// the fingerprint are equal, so the transfer from account 2 is answered
// with account 1's stored 201 ("debited account 1", Idempotent-Replayed:
// true) and never runs. The README then said the query string was not
// covered, and nothing that path parameters were not; docs/guarantees.md
// and docs/options.md now say the fingerprint covers the path.
//
// Fix (options.go, routeTool and newConfig's default fingerprint): scope
// and fingerprint by the matched path as well as the pattern, e.g. the
// tool stays the pattern for logs but storeKey and defaultFingerprint also
// take r.URL.EscapedPath() (or chi's URLParams, in order); the same key
// with another path is then IDEMPOTENCY_KEY_REUSED.
func TestAdversarialChiPathParamsNeverMerge(t *testing.T) {
	docpage.Says(t, "../docs/guarantees.md",
		"The fingerprint covers the method, the tool, the path and query, and the body, not headers.")
	docpage.Says(t, "../docs/options.md",
		"| `WithFingerprint(f)` | SHA-256 of method, tool, path and query, and body")
	mounts := map[string]func(mw func(http.Handler) http.Handler, h http.Handler) http.Handler{
		"With on the route": func(mw func(http.Handler) http.Handler, h http.Handler) http.Handler {
			r := chi.NewRouter()
			r.With(mw).Post("/accounts/{id}/transfer", h.ServeHTTP)
			return r
		},
		"Use in a sub-router": func(mw func(http.Handler) http.Handler, h http.Handler) http.Handler {
			r := chi.NewRouter()
			r.Route("/accounts/{id}", func(r chi.Router) {
				r.Use(mw)
				r.Post("/transfer", h.ServeHTTP)
			})
			return r
		},
	}
	for name, mount := range mounts {
		t.Run(name, func(t *testing.T) {
			var runs atomic.Int32
			h := mount(newMW(NewMemoryStore()), accountHandler(&runs))
			send := func(path string) *httptest.ResponseRecorder {
				req := httptest.NewRequest("POST", path, strings.NewReader(`{"amount":100}`))
				req.Header.Set("Idempotency-Key", "k-1")
				req.Header.Set("Authorization", "Bearer a")
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				return rec
			}
			require.Equal(t, "debited account 1", send("/accounts/1/transfer").Body.String())
			second := send("/accounts/2/transfer")
			assert.NotEqual(t, "debited account 1", second.Body.String(),
				"account 2's transfer was answered with account 1's response (status %d, replayed %q)",
				second.Code, second.Header().Get(replayedHeader))
			assert.Empty(t, second.Header().Get(replayedHeader), "another path is another request")
		})
	}
}

// TestAdversarialGuardNeverBlocksOtherPathParams breaks the guard's
// contract ("an identical mutating call (same session, tool, canonical
// args)") for chi services: a distinct call is blocked.
//
// Input: DuplicateGuard on r.With(guard).Delete("/items/{id}", h); one
// principal sends DELETE /items/1 then DELETE /items/2, no body, no key.
//
// What happens: the guard's record key is storeKey(principal, tool, body)
// with tool = "/items/{id}" and the same empty body, so the delete of item 2
// gets DUPLICATE_ACTION (409) pointing at the delete of item 1, and item 2
// is never deleted. An agent cleaning up a list of items is stopped after
// the first.
//
// Fix (guard.go, guard.serve, and options.go, routeTool): include the
// request path (r.URL.EscapedPath()) in the guard's key, as above.
func TestAdversarialGuardNeverBlocksOtherPathParams(t *testing.T) {
	var runs atomic.Int32
	r := chi.NewRouter()
	r.With(DuplicateGuard(NewMemoryStore(), WithLogger(quiet))).Delete("/items/{id}", accountHandler(&runs).ServeHTTP)
	for _, id := range []string{"1", "2"} {
		req := httptest.NewRequest("DELETE", "/items/"+id, nil)
		req.Header.Set("Authorization", "Bearer a")
		rec := httptest.NewRecorder()
		r.ServeHTTP(rec, req)
		assert.Equal(t, http.StatusCreated, rec.Code, "DELETE /items/%s is its own call: %s", id, rec.Body.String())
	}
	assert.EqualValues(t, 2, runs.Load())
}

// TestAdversarialFingerprintHostileBodies: bodies that Canonicalize
// rejects (duplicate members, lone surrogates, invalid UTF-8, exponents
// past the bound, nesting past the limit) are fingerprinted as sent, and
// never like the valid body a decoder might read them as; equal values
// spelled differently fingerprint alike.
func TestAdversarialFingerprintHostileBodies(t *testing.T) {
	deep := func(leaf string) string {
		return strings.Repeat("[", MaxCanonicalDepth+1) + leaf + strings.Repeat("]", MaxCanonicalDepth+1)
	}
	long := "1" + strings.Repeat("0", 100_000)
	distinct := [][2]string{
		{`{"a":1,"a":2}`, `{"a":2}`}, // encoding/json reads the last
		{`{"a":1,"a":2}`, `{"a":1}`}, // other decoders the first
		{`{"a":1,"\u0061":2}`, `{"a":2}`},
		{`{"a":"\ud800"}`, `{"a":"\ufffd"}`}, // encoding/json decodes a lone surrogate as U+FFFD
		{"{\"a\":\"\xff\"}", `{"a":"\ufffd"}`},
		{`{"a":"\udc00\ud800"}`, `{"a":"\ufffd\ufffd"}`},
		{`1152921504606846977`, `1152921504606846976`},
		{`9007199254740993`, `9007199254740992`},
		{`0.1`, `0.10000000000000001`},
		{`1e999999999`, `1e999999998`},
		{`1e-999999999`, `0`},
		{`1e1000000000`, `1e999999999`},
		{`1e1000000000`, `1e1000000001`},
		{long + "1", long + "2"},
		{"0." + strings.Repeat("0", 100_000) + "1", "0"},
		{`-0.0000001`, `0`},
		{"{\"é\":1}", "{\"e\u0301\":1}"}, // NFC vs NFD: distinct strings
		{`"a\u0000"`, `"a"`},
		{`[1,2]`, `[2,1]`},
		{`{"a":[]}`, `{"a":{}}`},
		{`"1"`, `1`},
		{`{"a":1}x`, `{"a":1}`},
		{deep("1"), deep("2")},
		{``, `""`},
		{`null`, ``},
	}
	for _, p := range distinct {
		a, b := defaultFingerprint("POST", "/t", []byte(p[0])), defaultFingerprint("POST", "/t", []byte(p[1]))
		assert.NotEqual(t, a, b, "%.60q and %.60q must not merge", p[0], p[1])
	}
	equal := [][]string{
		{`1`, `1.0`, `1e0`, `10e-1`, `0.1e1`, `1E+0`, `100e-2`, `0.00001e5`, `1e00000000000000000000000`},
		{`0`, `-0`, `0.0e5`, `-0e-99999999999999999999999`, `0e999999999999`},
		{`1152921504606846977`, `1.152921504606846977e18`, `11529215046068469770e-1`},
		{`{"b":1,"a":2}`, " {\t\"a\" : 2 ,\r\n \"b\":1 } ", `{"\u0062":1,"a":2.0}`},
		{`"\u00e9\/"`, "\"é/\""},
		{`"\ud83d\ude00"`, "\"\U0001F600\""},
	}
	for _, g := range equal {
		want := defaultFingerprint("POST", "/t", []byte(g[0]))
		for _, s := range g[1:] {
			assert.Equal(t, want, defaultFingerprint("POST", "/t", []byte(s)), "%q and %q are one value", g[0], s)
		}
	}
}

// TestAdversarialScopeConcatenation: principal, tool and key are never
// run together: moving bytes between them gives another store key, and
// the guard's records never share a key with the middleware's.
func TestAdversarialScopeConcatenation(t *testing.T) {
	triples := [][3]string{
		{"a", "bc", "d"}, {"ab", "c", "d"}, {"a", "b", "cd"}, {"", "abc", "d"},
		{"a\x00", "b", "c"}, {"a", "\x00b", "c"}, {"abcd", "", ""},
	}
	seen := map[string][3]string{}
	for _, tr := range triples {
		k := storeKey(nil, tr[0], tr[1], tr[2])
		prev, dup := seen[k]
		assert.False(t, dup, "%q and %q share a store key", tr, prev)
		seen[k] = tr
		assert.Len(t, k, 64, "fixed length: no client text in the store's key space")
	}
	// An Idempotency-Key equal to a body never reaches the guard's records.
	assert.NotEqual(t, storeKey(nil, "p", "/t", "{}"), "dup:"+storeKey(nil, "p", "/t", "{}"))
}
