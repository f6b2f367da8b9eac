package idempotency

import (
	"io"
	"net/http"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/reqscope"
)

// serveIdle runs a call while the store holds no run of failures (its
// [RunsWatcher] says so): no call can be refused,
// so nothing is read or looked up before the handler runs. The guard keeps
// a copy of the body as the handler reads it and the status it writes; a
// success costs only that. A failure is keyed and counted as in
// [thrash.serve].
func (t *thrash) serveIdle(w http.ResponseWriter, r *http.Request, next http.Handler) {
	ctx := r.Context()
	before := reqscope.Written[*toolerr.Error](ctx)
	iw := &idleWatch{sw: statusWriter{w: w}}
	if r.Body != nil && r.Body != http.NoBody {
		iw.body = teeBody{src: r.Body, max: t.cfg.maxBody}
		iw.body.buf = iw.small[:0]
		r.Body = &iw.body
	}
	next.ServeHTTP(&iw.sw, r)
	if iw.sw.hijacked || iw.sw.status != 0 && iw.sw.status < 400 {
		return // a success, and no run to clear
	}
	principal := t.cfg.principal(r)
	if principal == "" && !t.cfg.sharedAnon {
		return
	}
	body, ok := iw.body.all()
	if !ok {
		return // too large to compare, or unreadable
	}
	t.settle(ctx, t.requestKey(r, principal, body), Failures{}, &iw.sw, before)
}

// idleWatch is what [thrash.serveIdle] keeps of a call, in one
// allocation: its status, its body as read, and room for a small body.
type idleWatch struct {
	sw    statusWriter
	body  teeBody
	small [512]byte
}

// teeBody is a request body that keeps a copy of what the handler reads,
// up to max bytes.
type teeBody struct {
	src      io.ReadCloser
	buf      []byte
	max      int
	eof      bool
	err      error
	overflow bool
}

// Read reads from the body and keeps a copy.
func (b *teeBody) Read(p []byte) (int, error) {
	n, err := b.src.Read(p)
	b.keep(p[:n], err)
	return n, err
}

// keep notes p, read with err.
func (b *teeBody) keep(p []byte, err error) {
	if !b.overflow {
		if len(b.buf)+len(p) > b.max {
			b.overflow, b.buf = true, nil
		} else {
			b.buf = append(b.buf, p...)
		}
	}
	switch {
	case err == io.EOF:
		b.eof = true
	case err != nil && b.err == nil:
		b.err = err
	}
}

// Close closes the body.
func (b *teeBody) Close() error { return b.src.Close() }

// all returns the whole body: what the handler read, then what it left,
// read now; ok is false when it is over max or does not read.
func (b *teeBody) all() (body []byte, ok bool) {
	if b.src == nil {
		return nil, true // no body
	}
	if !b.eof && b.err == nil && !b.overflow {
		rest, err := io.ReadAll(io.LimitReader(b.src, int64(b.max-len(b.buf))+1))
		b.keep(rest, err)
		if err == nil {
			b.eof = true
		}
	}
	if b.overflow || b.err != nil || len(b.buf) > b.max {
		return nil, false
	}
	return b.buf, true
}
