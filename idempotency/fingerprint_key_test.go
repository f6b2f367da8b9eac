package idempotency

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// cardCharge is a tool call whose arguments hold a card number.
const cardCharge = `{"card":"4242424242424242","amount_minor":500}`

const chargeTool = "/tools/create_shipment_label"

// TestFingerprintKeyKeysWhatIsStored: with a key, the record of a keyed
// request sits under an HMAC store key and holds an HMAC fingerprint: no
// plain SHA-256 of the body, which a card range can be searched against,
// is in the store. Replays and reuse checks work as without a key.
func TestFingerprintKeyKeysWhatIsStored(t *testing.T) {
	secret := []byte("0123456789abcdef0123456789abcdef")
	store := NewMemoryStore()
	tool := &labelTool{}
	h := newMW(store, WithFingerprintKey(secret))(tool)
	require.Equal(t, 201, call(h, "charge-1", "Bearer a", cardCharge).Code)
	assert.Equal(t, "true", call(h, "charge-1", "Bearer a", cardCharge).Header().Get("Idempotent-Replayed"))
	assert.Equal(t, toolerr.CodeIdempotencyKeyReused, code(t, call(h, "charge-1", "Bearer a", `{"card":"4242424242424241","amount_minor":500}`)))
	assert.EqualValues(t, 1, tool.runs.Load())

	principal := authorizationPrincipal(authRequest("Bearer a"))
	ctx := context.Background()
	_, found, err := store.Get(ctx, storeKey(nil, principal, chargeTool, "charge-1"))
	require.NoError(t, err)
	assert.False(t, found, "nothing under the unkeyed store key")
	rec, found, err := store.Get(ctx, storeKey(secret, principal, chargeTool, "charge-1"))
	require.NoError(t, err)
	require.True(t, found, "the record is under the keyed store key")

	req := httptest.NewRequest("POST", chargeTool, strings.NewReader(cardCharge))
	plain := requestFingerprint(nil, req, chargeTool, []byte(cardCharge))
	assert.NotEqual(t, plain, rec.Fingerprint, "the stored fingerprint is not the plain digest")
	assert.Equal(t, requestFingerprint(secret, req, chargeTool, []byte(cardCharge)), rec.Fingerprint)
	assert.NotEqual(t, requestFingerprint([]byte("another key"), req, chargeTool, []byte(cardCharge)), rec.Fingerprint)
	sum := sha256.Sum256([]byte(cardCharge))
	assert.NotContains(t, rec.Fingerprint, hex.EncodeToString(sum[:]))
}

// TestFingerprintKeyIsSharedByReplicas: two middlewares with one key and
// one store are one service; a third with another key sees the key as
// new, which is why every replica must have the same key.
func TestFingerprintKeyIsSharedByReplicas(t *testing.T) {
	store := NewMemoryStore()
	tool := &labelTool{}
	a := newMW(store, WithFingerprintKey([]byte("replica secret")))(tool)
	b := newMW(store, WithFingerprintKey([]byte("replica secret")))(tool)
	other := newMW(store, WithFingerprintKey([]byte("another secret")))(tool)
	require.Equal(t, 201, call(a, "k", "Bearer a", cardCharge).Code)
	assert.Equal(t, "true", call(b, "k", "Bearer a", cardCharge).Header().Get("Idempotent-Replayed"))
	assert.EqualValues(t, 1, tool.runs.Load())
	assert.Empty(t, call(other, "k", "Bearer a", cardCharge).Header().Get("Idempotent-Replayed"))
	assert.EqualValues(t, 2, tool.runs.Load())
}

// TestFingerprintKeyIsCopied: the caller's slice, changed after the
// option, changes nothing.
func TestFingerprintKeyIsCopied(t *testing.T) {
	store := NewMemoryStore()
	secret := []byte("replica secret")
	tool := &labelTool{}
	h := newMW(store, WithFingerprintKey(secret))(tool)
	require.Equal(t, 201, call(h, "k", "Bearer a", cardCharge).Code)
	copy(secret, "XXXXXXXXXXXXXX")
	assert.Equal(t, "true", call(h, "k", "Bearer a", cardCharge).Header().Get("Idempotent-Replayed"))
	assert.Equal(t, newConfig(nil).digestKey, newConfig([]Option{WithFingerprintKey(nil)}).digestKey, "an empty key keeps the default")
}

// TestFingerprintKeyKeysTheGuard: the duplicate-action guard's record of
// a keyless call, whose key is a digest of the body, is keyed too, and
// still blocks the identical call.
func TestFingerprintKeyKeysTheGuard(t *testing.T) {
	secret := []byte("guard secret")
	store := NewMemoryStore()
	h, runs := newGuard(store, WithFingerprintKey(secret))
	require.Equal(t, 201, call(h, "", "Bearer a", cardCharge).Code)
	assert.Equal(t, 409, call(h, "", "Bearer a", cardCharge).Code)
	assert.EqualValues(t, 1, runs.Load())
	principal := authorizationPrincipal(authRequest("Bearer a"))
	canonical, err := Canonicalize([]byte(cardCharge))
	require.NoError(t, err)
	for _, tc := range []struct {
		key  []byte
		want bool
	}{{nil, false}, {secret, true}} {
		_, found, err := store.Get(context.Background(), "dup:"+storeKey(tc.key, principal, chargeTool+"\x00"+chargeTool, string(canonical)))
		require.NoError(t, err)
		assert.Equal(t, tc.want, found, "key %q", tc.key)
	}
}

// TestFingerprintKeyKeysToolCalls: a keyed MCP tool call's record sits
// under a keyed store key with a keyed fingerprint, a retry replays, and
// a reused key with other arguments is refused as before.
func TestFingerprintKeyKeysToolCalls(t *testing.T) {
	secret := []byte("calls secret")
	store := NewMemoryStore()
	tc := NewToolCalls(store, WithLogger(quiet), WithFingerprintKey(secret))
	ctx := context.Background()
	charge := ToolCall{Principal: "agent-1", Tool: "charge", Arguments: []byte(cardCharge), Key: "k-1"}
	var n atomic.Int32
	_, _, e := tc.Do(ctx, charge, true, runs(&n, `"ok"`, true))
	require.Nil(t, e)
	_, replayed, e := tc.Do(ctx, charge, true, runs(&n, `"ok"`, true))
	require.Nil(t, e)
	assert.True(t, replayed)
	other := charge
	other.Arguments = []byte(`{"card":"4242424242424241","amount_minor":500}`)
	_, _, e = tc.Do(ctx, other, true, runs(&n, `"ok"`, true))
	require.NotNil(t, e)
	assert.Equal(t, toolerr.CodeIdempotencyKeyReused, e.Code)
	assert.EqualValues(t, 1, n.Load())

	_, found, err := store.Get(ctx, "call:"+storeKey(nil, "agent-1", "", "k-1"))
	require.NoError(t, err)
	assert.False(t, found)
	rec, found, err := store.Get(ctx, "call:"+storeKey(secret, "agent-1", "", "k-1"))
	require.NoError(t, err)
	require.True(t, found)
	assert.Equal(t, callFingerprint(secret, "charge", []byte(cardCharge)), rec.Fingerprint)
	assert.NotEqual(t, callFingerprint(nil, "charge", []byte(cardCharge)), rec.Fingerprint)
}
