package toolerrhuma

import (
	"bytes"
	"context"
	"io"
	"sync"

	"github.com/danielgtaylor/huma/v2"
)

// The per-request state of the API middleware: which installation serves
// the request, and the bytes of the body huma read, kept (bounded) so that
// a rejected body can be repaired without being read twice.

// stateKey is the context key of a request's state.
type stateKey struct{}

// reqState is the state of one request. It is the request's context itself
// (its Value answers stateKey), so that it costs no allocation of its own.
type reqState struct {
	context.Context
	in *installation
	op *huma.Operation
	// body holds the first bytes huma read of the request body, up to
	// in.cfg.maxBody; nil when the operation has no JSON body.
	body *bytes.Buffer
	// over says that the body was longer than what body keeps.
	over bool
	// r is the adapter's body reader, read through keepingReader.
	r io.Reader
}

// Value returns the state for stateKey, else the parent context's value.
func (s *reqState) Value(key any) any {
	if key == (stateKey{}) {
		return s
	}
	return s.Context.Value(key)
}

// stateOf returns the state of the request of ctx, or nil.
func stateOf(ctx context.Context) *reqState {
	st, _ := ctx.Value(stateKey{}).(*reqState)
	return st
}

// bodies recycles the buffers that keep request bodies.
var bodies = sync.Pool{New: func() any { return new(bytes.Buffer) }}

// release returns the body buffer once the request is done.
func (s *reqState) release() {
	if b := s.body; b != nil && b.Cap() <= 64<<10 {
		s.body = nil
		b.Reset()
		bodies.Put(b)
	}
}

// keep appends p to the kept body, up to the cap.
func (s *reqState) keep(p []byte) {
	room := s.in.cfg.maxBody - s.body.Len()
	if len(p) > room {
		s.over = true
		p = p[:max(room, 0)]
	}
	s.body.Write(p)
}

// humaContext is the huma.Context the operation sees under the API
// middleware: the request's context is the state, and the body reader
// keeps what huma reads.
type humaContext struct {
	adapterContext
	st *reqState
}

// adapterContext is huma.Context under a name that does not clash with its
// Context method.
type adapterContext = huma.Context

// Context returns the request's context, which carries the state.
func (c *humaContext) Context() context.Context { return c.st }

// Unwrap returns the adapter's context (humachi.Unwrap and humago.Unwrap
// walk through it).
func (c *humaContext) Unwrap() huma.Context { return c.adapterContext }

// BodyReader returns the request body; what is read from it is kept
// (bounded) when the operation takes a JSON body.
func (c *humaContext) BodyReader() io.Reader {
	r := c.adapterContext.BodyReader()
	if c.st.body == nil || r == nil {
		return r
	}
	c.st.r = r
	return (*keepingReader)(c.st)
}

// keepingReader is the request's state read as its body: it reads the
// body and keeps what it read. A conversion of the state, it costs no
// allocation.
type keepingReader reqState

// Read reads from the body and keeps what it read.
func (k *keepingReader) Read(p []byte) (int, error) {
	n, err := k.r.Read(p)
	if n > 0 {
		(*reqState)(k).keep(p[:n])
	}
	return n, err
}

// Close closes the body, as huma closes the reader it got.
func (k *keepingReader) Close() error {
	if c, ok := k.r.(io.Closer); ok {
		return c.Close()
	}
	return nil
}
