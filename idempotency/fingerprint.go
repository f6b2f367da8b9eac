package idempotency

import (
	"encoding/binary"
	"encoding/hex"
	"hash"
	"mime"
	"net/http"
	"strings"
)

// defaultFingerprint is the fingerprint of a request with method, tool and
// body, the body in RFC 8785 canonical form when it is JSON.
func defaultFingerprint(method, tool string, body []byte) string {
	return fingerprintOf(nil, method, tool, body, true)
}

// requestFingerprint is the default fingerprint of [Middleware]: the
// method, the tool, the request target (path and query, so that the path
// parameters and query arguments of one route never merge two requests)
// and the body, canonical only when it is declared JSON or not declared
// at all: "1.10" sent as text/plain is not "1.1".
func requestFingerprint(key []byte, r *http.Request, tool string, body []byte) string {
	return fingerprintOf(key, r.Method, tool+"\x00"+r.URL.RequestURI(), body, declaredJSON(r))
}

// fingerprintOf hashes the parts, and the body, canonical when canonical
// is set and the body is JSON, keyed with key (newDigest).
func fingerprintOf(key []byte, method, target string, body []byte, canonical bool) string {
	h := newDigest(key)
	writePart(h, method)
	writePart(h, target)
	if canonical {
		if c, err := Canonicalize(body); err == nil {
			body = c
		}
	}
	_, _ = h.Write(body)
	return hex.EncodeToString(h.Sum(nil))
}

// declaredJSON reports whether r's body is declared JSON (application/json
// or a +json type), or not declared.
func declaredJSON(r *http.Request) bool {
	ct := r.Header.Get("Content-Type")
	if ct == "" {
		return true
	}
	mt, _, err := mime.ParseMediaType(ct)
	return err == nil && (mt == "application/json" || strings.HasSuffix(mt, "+json"))
}

// storeKey is the store's key of an idempotency key: scoped by principal
// and tool, hashed (keyed with digestKey, newDigest) to a fixed length so
// that no client text reaches the store's key space.
func storeKey(digestKey []byte, principal, tool, key string) string {
	h := newDigest(digestKey)
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
