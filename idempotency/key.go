package idempotency

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
)

// keyDomain separates idempotency keys from any other SHA-256 the system
// computes over similar data, and versions the encoding.
const keyDomain = "toolerr/idempotency-key/v1"

// Key derives the idempotency key an agent runtime sends with a tool call:
// the lower-case hex SHA-256 (64 characters) of the session, the tool name
// and the canonical form of args (see Canonicalize). Each part is
// length-prefixed, so ("a", "bc") and ("ab", "c") give different keys, and
// the same call retried in the same session gives the same key however its
// arguments are spelled: member order, whitespace and 1 vs 1.0 vs 1e0 do not
// change it, while distinct numbers always do (2^60 and 2^60+1 give two
// keys, where an RFC 8785 implementation rounding through doubles would give
// one).
//
// For runtimes in other languages, the key is the SHA-256 of the
// concatenation, for each part p of "toolerr/idempotency-key/v1", session,
// tool and the canonical arguments (all UTF-8), of len(p) as 8 big-endian
// bytes followed by p. The canonical arguments are RFC 8785 JCS except for
// numbers, which follow the exact-decimal rule of the package documentation
// ("Canonical numbers"); derive them from the argument text as sent, never
// from values decoded into doubles.
//
// args must be one JSON value (use {} or null for a call without arguments);
// invalid JSON is an error wrapping ErrInvalidJSON, not a key. An empty
// session or tool is an error.
//
//	key, err := idempotency.Key(sessionID, "create_invoice", call.Arguments)
//	if err != nil {
//		return err // malformed arguments: reject the call
//	}
//	req.Header.Set("Idempotency-Key", key)
func Key(session, tool string, args []byte) (string, error) {
	if session == "" {
		return "", errors.New("idempotency: Key: empty session")
	}
	if tool == "" {
		return "", errors.New("idempotency: Key: empty tool")
	}
	// The hashed message: each part as an 8-byte big-endian length and its
	// bytes. The canonical arguments' length is patched in once known.
	msg := make([]byte, 0, 4*8+len(keyDomain)+len(session)+len(tool)+len(args)+16)
	msg = appendKeyPart(msg, keyDomain)
	msg = appendKeyPart(msg, session)
	msg = appendKeyPart(msg, tool)
	at := len(msg)
	msg = binary.BigEndian.AppendUint64(msg, 0)
	msg, err := appendCanonical(msg, args)
	if err != nil {
		return "", err
	}
	binary.BigEndian.PutUint64(msg[at:], uint64(len(msg)-at-8))
	sum := sha256.Sum256(msg)
	var key [2 * sha256.Size]byte
	hex.Encode(key[:], sum[:])
	return string(key[:]), nil
}

// appendKeyPart appends p to msg preceded by its length as 8 big-endian
// bytes.
func appendKeyPart(msg []byte, p string) []byte {
	msg = binary.BigEndian.AppendUint64(msg, uint64(len(p)))
	return append(msg, p...)
}
