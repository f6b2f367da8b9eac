package toolerrgin

import (
	"bufio"
	"errors"
	"io"
	"net"
	"net/http"

	"github.com/gin-gonic/gin"
)

// Two writers serve one request, both parts of the request's [call]:
//
//   - below, the writer handed to the toolerr middleware: gin's own
//     writer, carrying the call so that the handler the middleware runs
//     finds it again (the middleware is built once, not per request);
//   - above, the writer installed as c.Writer for the handlers behind
//     the adapter: a gin.ResponseWriter over the middleware's recorder.
//
// above keeps gin's semantics: a status is lazy until the first write,
// WriteHeaderNow or Flush; Status, Size and Written report what the
// handlers wrote through it. Once the middleware has returned, they report
// the response as it went out (gin's writer's state), so an outer
// middleware that logs c.Writer.Status() logs the error's status.

// errHijackWritten is what Hijack answers once body bytes were written, as
// gin's own writer does.
var errHijackWritten = errors.New("toolerrgin: response body already written")

// noWritten is gin's size of a response nothing was written to.
const noWritten = -1

// below is gin's writer as the middleware's underlying writer.
type below struct {
	gin.ResponseWriter
	call *call
}

// Unwrap returns gin's writer, for http.ResponseController.
func (b *below) Unwrap() http.ResponseWriter { return b.ResponseWriter }

// above is the gin.ResponseWriter the handlers behind the adapter write to.
type above struct {
	call   *call               // the request's call, for ShouldBindJSON
	rec    http.ResponseWriter // the middleware's recorder (below itself for RPC requests)
	gin    gin.ResponseWriter  // gin's writer, under the middleware
	status int                 // the status the handlers chose, lazily
	size   int                 // bytes written; noWritten before anything
	done   bool                // the middleware returned: gin's writer tells the truth
}

// reset readies a for a request: gin's writer as it stands (404 and 405
// before NoRoute and NoMethod handlers run), under the recorder rec.
func (a *above) reset(cl *call, rec http.ResponseWriter, g gin.ResponseWriter) {
	*a = above{call: cl, rec: rec, gin: g, status: g.Status(), size: noWritten}
	if g.Written() {
		a.size = g.Size()
	}
}

// Header returns the response's header map.
func (a *above) Header() http.Header { return a.rec.Header() }

// WriteHeader chooses the status, as gin does: the last call before the
// first write wins.
func (a *above) WriteHeader(code int) {
	if a.done {
		a.rec.WriteHeader(code)
		return
	}
	if code > 0 && a.status != code && !a.Written() {
		a.status = code
	}
}

// WriteHeaderNow sends the chosen status to the middleware.
func (a *above) WriteHeaderNow() {
	if a.done {
		if !a.gin.Written() {
			a.rec.WriteHeader(a.gin.Status())
			a.gin.WriteHeaderNow()
		}
		return
	}
	if !a.Written() {
		a.size = 0
		a.rec.WriteHeader(a.status)
	}
}

// Write sends the status, then p.
func (a *above) Write(p []byte) (int, error) {
	a.WriteHeaderNow()
	n, err := a.rec.Write(p)
	if !a.done {
		a.size += n
	}
	return n, err
}

// WriteString sends the status, then s.
func (a *above) WriteString(s string) (int, error) {
	a.WriteHeaderNow()
	n, err := io.WriteString(a.rec, s)
	if !a.done {
		a.size += n
	}
	return n, err
}

// Status returns the status chosen, or once the middleware returned, the
// status sent.
func (a *above) Status() int {
	if a.done {
		return a.gin.Status()
	}
	return a.status
}

// Size returns the bytes written, -1 before anything was.
func (a *above) Size() int {
	if a.done {
		return a.gin.Size()
	}
	return a.size
}

// Written reports whether the status was sent.
func (a *above) Written() bool {
	if a.done {
		return a.gin.Written()
	}
	return a.size != noWritten
}

// Flush sends the status and flushes. The middleware holds an error
// response back until the handler returns: flushing one sends nothing.
func (a *above) Flush() {
	a.WriteHeaderNow()
	if f, ok := a.rec.(http.Flusher); ok {
		f.Flush()
	}
}

// Hijack hands the connection over, as gin's writer does: before any body
// byte was written.
func (a *above) Hijack() (net.Conn, *bufio.ReadWriter, error) {
	if a.Size() > 0 {
		return nil, nil, errHijackWritten
	}
	h, ok := a.rec.(http.Hijacker)
	if !ok {
		return nil, nil, http.ErrNotSupported
	}
	if !a.done && a.size < 0 {
		a.size = 0
	}
	return h.Hijack()
}

// CloseNotify returns gin's writer's channel.
//
// Deprecated: as http.CloseNotifier; use the request's context.
func (a *above) CloseNotify() <-chan bool { return a.gin.CloseNotify() }

// Pusher returns gin's writer's pusher, or nil: a push is a response of
// its own, which the middleware has nothing to do with.
func (a *above) Pusher() http.Pusher { return a.gin.Pusher() }

// Unwrap returns the middleware's recorder, for http.ResponseController.
func (a *above) Unwrap() http.ResponseWriter { return a.rec }

var _ gin.ResponseWriter = (*above)(nil)
