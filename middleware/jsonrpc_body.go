package middleware

import (
	"io"
	"net/http"
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
// Tees, with their buffers, are recycled ([watchBody], [bodyTee.release]):
// watching a body costs no allocation, and a request that is not watched
// pays a nil pointer in the recorder.
type bodyTee struct {
	src  io.ReadCloser // the request's body; nil for an empty one
	kept []byte        // what was read, up to the bound
	end  bool          // src reported EOF or an error
	eof  bool          // src reported EOF: kept is all of it, unless over
	over bool          // more than maxJSONRPCBody was read: kept is a prefix
}

// tees recycles bodyTees.
var tees = sync.Pool{New: func() any { return &bodyTee{kept: make([]byte, 0, 4<<10)} }}

// watchBody returns a tee of body, which may be nil or http.NoBody: an
// empty body, known to be whole.
func watchBody(body io.ReadCloser) *bodyTee {
	t := tees.Get().(*bodyTee)
	if body == nil || body == http.NoBody {
		t.end, t.eof = true, true
	} else {
		t.src = body
	}
	return t
}

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
	if room := maxJSONRPCBody - len(t.kept); len(p) > room {
		p, t.over = p[:room], true
	}
	t.kept = append(t.kept, p...)
}

// body returns the kept bytes and whether they are the whole body. With
// readRest, what the handler left unread is read first, up to the bound:
// the handler has returned, so it misses nothing. A request not watched
// (t nil) has no body to read: a GET, a DELETE.
func (t *bodyTee) body(readRest bool) (b []byte, whole bool) {
	if t == nil {
		return nil, false
	}
	if readRest && t.src != nil {
		var chunk [2 << 10]byte
		// A reader that returns nothing, again and again, is given up on.
		for idle := 0; !t.end && !t.over && idle < 8; {
			n, _ := t.Read(chunk[:])
			if n == 0 {
				idle++
			}
		}
	}
	return t.kept, t.eof && !t.over
}

// release gives t back to tees once the request is done; t may be nil.
func (t *bodyTee) release() {
	if t == nil {
		return
	}
	kept := t.kept[:0]
	if cap(kept) > 2*maxJSONRPCBody {
		kept = nil // a buffer grown past the bound is not kept
	}
	*t = bodyTee{kept: kept}
	tees.Put(t)
}
