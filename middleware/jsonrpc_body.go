package middleware

import (
	"io"
	"sync"
)

// maxJSONRPCBody bounds how much of the body of a request that may be
// JSON-RPC the middleware keeps, to recognise it and find its id when it
// answers an error: the first 64 KiB. An id past it is answered with null.
const maxJSONRPCBody = 64 << 10

// bodyTee is the body of a request that may be JSON-RPC, as the handler
// reads it: every read goes to the body, unchanged, and the first
// maxJSONRPCBody bytes read are kept. It reads nothing the handler does
// not ask for until the middleware answers an error ([bodyTee.body]).
//
// It lives in the recorder (no allocation of its own); its buffer comes
// from teeBuffers on the first read and goes back when the request is
// done ([bodyTee.release]).
type bodyTee struct {
	src  io.ReadCloser // the request's body; nil when not watched
	kept *[]byte       // what was read, up to the bound; nil until a read
	end  bool          // src reported EOF or an error
	eof  bool          // src reported EOF: kept is all of it, unless over
	over bool          // more than maxJSONRPCBody was read: kept is a prefix
}

// teeBuffers recycles the buffers of bodyTee.
var teeBuffers = sync.Pool{New: func() any { b := make([]byte, 0, 4<<10); return &b }}

// Read reads from the body and keeps what fits under the bound.
func (t *bodyTee) Read(p []byte) (int, error) {
	n, err := t.src.Read(p)
	t.keep(p[:n])
	if err != nil {
		t.end, t.eof = true, err == io.EOF
	}
	return n, err
}

// Close closes the body.
func (t *bodyTee) Close() error { return t.src.Close() }

// keep appends p to the kept bytes, up to the bound.
func (t *bodyTee) keep(p []byte) {
	if len(p) == 0 || t.over {
		return
	}
	if t.kept == nil {
		t.kept = teeBuffers.Get().(*[]byte)
		*t.kept = (*t.kept)[:0]
	}
	if room := maxJSONRPCBody - len(*t.kept); len(p) > room {
		p, t.over = p[:room], true
	}
	*t.kept = append(*t.kept, p...)
}

// body returns the kept bytes and whether they are the whole body. With
// readRest, what the handler left unread is read first, up to the bound:
// the handler has returned, so it misses nothing.
func (t *bodyTee) body(readRest bool) (b []byte, whole bool) {
	if t.src == nil {
		return nil, t.eof // an empty POST's is known, whole; a GET has none
	}
	if readRest {
		var chunk [2 << 10]byte
		// A reader that returns nothing, again and again, is given up on.
		for idle := 0; !t.end && !t.over && idle < 8; {
			n, _ := t.Read(chunk[:])
			if n == 0 {
				idle++
			}
		}
	}
	if t.kept != nil {
		b = *t.kept
	}
	return b, t.eof && !t.over
}

// release gives the buffer back to teeBuffers once the request is done.
func (t *bodyTee) release() {
	if t.kept != nil && cap(*t.kept) <= 2*maxJSONRPCBody {
		teeBuffers.Put(t.kept)
	}
	t.kept = nil
}
