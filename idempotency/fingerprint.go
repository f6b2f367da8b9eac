package idempotency

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"hash"
)

// defaultFingerprint hashes the method, the tool and the body: in RFC 8785
// canonical form when it is JSON, so that key order, whitespace and 1 vs
// 1.0 do not make a retry look like another request; as sent otherwise.
// A body that is not JSON can never equal a canonical form, which always
// is, so the two cannot be confused.
func defaultFingerprint(method, tool string, body []byte) string {
	h := sha256.New()
	writePart(h, method)
	writePart(h, tool)
	if canonical, err := Canonicalize(body); err == nil {
		body = canonical
	}
	_, _ = h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

// storeKey is the store's key of an idempotency key: scoped by principal
// and tool, hashed to a fixed length so that no client text reaches the
// store's key space.
func storeKey(principal, tool, key string) string {
	h := sha256.New()
	writePart(h, principal)
	writePart(h, tool)
	writePart(h, key)
	return hex.EncodeToString(h.Sum(nil))
}

// writePart writes s with its length first, so that parts never run into
// each other ("a"+"bc" differs from "ab"+"c").
func writePart(h hash.Hash, s string) {
	var n [8]byte
	binary.BigEndian.PutUint64(n[:], uint64(len(s)))
	_, _ = h.Write(n[:])
	_, _ = h.Write([]byte(s))
}
