package idempotency

import (
	"crypto/hmac"
	"crypto/sha256"
	"hash"
)

// WithFingerprintKey keys every digest the package writes to the store
// with HMAC-SHA-256 under key: the request fingerprints, the store keys
// and the duplicate-action guard's keys, which are digests of the
// request's body. Default: no key, plain SHA-256.
//
// A digest of a body that holds a card number is not the card number,
// but when the rest of the body is known the few billion candidates of
// one card range can be hashed and compared with it: PCI DSS accepts a
// hash of a card number only when it is keyed. Set a key when tools take
// card numbers, or other short secrets, in their arguments. Use 32 random
// bytes, kept with the service's other secrets and the same on every
// replica that shares the store; a replica with another key (or none)
// reads every key and fingerprint as new or different. Changing the key
// therefore makes retries of requests sent before the change, for the
// retention period, either run again as new requests or be refused as a
// reused key: change it when the service is drained, or wait out the
// retention. A custom [WithFingerprint] function is not keyed: it is the
// caller's own digest. An empty key keeps the default.
func WithFingerprintKey(key []byte) Option {
	return func(c *config) {
		if len(key) > 0 {
			c.digestKey = append([]byte(nil), key...)
		}
	}
}

// newDigest returns the hash of the package's digests: HMAC-SHA-256 under
// key, or SHA-256 when key is empty.
func newDigest(key []byte) hash.Hash {
	if len(key) == 0 {
		return sha256.New()
	}
	return hmac.New(sha256.New, key)
}
