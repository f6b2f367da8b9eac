package toolerr

import (
	"context"
	"crypto/rand"
	"encoding/hex"
)

type ctxKey int

const (
	requestIDKey ctxKey = iota
	traceIDKey
)

// WithRequestID returns a context carrying the request id that errors
// rendered for this request will carry.
func WithRequestID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, requestIDKey, id)
}

// RequestID returns the request id stored by [WithRequestID], or "".
func RequestID(ctx context.Context) string {
	id, _ := ctx.Value(requestIDKey).(string)
	return id
}

// WithTraceID returns a context carrying a W3C trace id for errors rendered
// for this request. The middleware stores the current span's id here.
func WithTraceID(ctx context.Context, id string) context.Context {
	return context.WithValue(ctx, traceIDKey, id)
}

// TraceID returns the trace id stored by [WithTraceID], or "".
func TraceID(ctx context.Context) string {
	id, _ := ctx.Value(traceIDKey).(string)
	return id
}

// NewRequestID returns 16 random bytes in lower-case hex.
func NewRequestID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails (Go 1.24+).
	return hex.EncodeToString(b[:])
}

// ValidRequestID reports whether id may be echoed as a request id: 1 to 128
// bytes of ASCII letters, digits and . _ : -. Anything else (CR/LF, quotes,
// spaces, non-ASCII) must be replaced, never echoed.
func ValidRequestID(id string) bool {
	if id == "" || len(id) > MaxIDLen {
		return false
	}
	for i := 0; i < len(id); i++ {
		switch b := id[i]; {
		case b >= 'a' && b <= 'z', b >= 'A' && b <= 'Z', b >= '0' && b <= '9',
			b == '.', b == '_', b == ':', b == '-':
		default:
			return false
		}
	}
	return true
}

// ValidTraceID reports whether id is a W3C trace id: 32 lower-case hex
// digits, not all zero.
func ValidTraceID(id string) bool {
	if len(id) != 32 {
		return false
	}
	nonZero := false
	for i := 0; i < len(id); i++ {
		b := id[i]
		if (b < '0' || b > '9') && (b < 'a' || b > 'f') {
			return false
		}
		nonZero = nonZero || b != '0'
	}
	return nonZero
}
