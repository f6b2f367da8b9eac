package toolerrgin

import (
	"encoding/json"
	"io"
	"net/http"
	"strings"
)

// maxKeptBody is the most of a JSON request body the adapter keeps for
// example_request; past it the copy is dropped and no example is offered.
const maxKeptBody = 256 << 10

// keptBody keeps a copy of what the handlers read of a JSON request body,
// so that example_request can start from the client's own arguments (the
// member it sent, repaired; never the bound type's zero values for what it
// left out) without reading the body twice. It lives in the request's
// call: it costs no allocation until the body is read.
type keptBody struct {
	rc   io.ReadCloser
	buf  []byte
	eof  bool // the whole body was read
	over bool // it was longer than maxKeptBody: nothing is kept
}

// keepsBody reports whether r's body is worth keeping: a JSON body.
func keepsBody(r *http.Request) bool {
	if r.Body == nil || r.Body == http.NoBody || r.ContentLength > maxKeptBody {
		return false
	}
	return strings.Contains(strings.ToLower(r.Header.Get("Content-Type")), "json")
}

// Read reads from the body and keeps a copy of what it read.
func (k *keptBody) Read(p []byte) (int, error) {
	n, err := k.rc.Read(p)
	if !k.over {
		if len(k.buf)+n > maxKeptBody {
			k.over, k.buf = true, nil
		} else {
			k.buf = append(k.buf, p[:n]...)
		}
	}
	if err == io.EOF {
		k.eof = true
	}
	return n, err
}

// Close closes the body.
func (k *keptBody) Close() error { return k.rc.Close() }

// kept returns the whole body as read, or nil when it was not kept, was
// too long, or was not read whole. A JSON decoder stops at the end of its
// value without asking for the end of the body, so a body read up to a
// complete JSON value counts as whole: gin's binding decodes that value
// and no more.
func (k *keptBody) kept() []byte {
	if k.rc == nil || k.over || len(k.buf) == 0 {
		return nil
	}
	if !k.eof && !json.Valid(k.buf) {
		return nil
	}
	return k.buf
}
