package idempotency

import (
	"bytes"
	"errors"
	"io"
	"net/http"
)

// errBodyTooLarge reports a request body longer than the middleware reads.
var errBodyTooLarge = errors.New("idempotency: body over the limit")

// readBody reads the request body, up to max bytes, for the fingerprint,
// and leaves r.Body giving the handler exactly the bytes it would have read
// without the middleware: the whole body when it fits; when it is longer
// than max (errBodyTooLarge) or fails to read (the read error), the bytes
// read so far, then the rest of the original body or the same error. No
// caller changes what a handler reads.
func readBody(r *http.Request, max int) ([]byte, error) {
	if r.Body == nil || r.Body == http.NoBody {
		return nil, nil
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, int64(max)+1))
	switch {
	case err != nil:
		r.Body = &prefixedBody{prefix: body, err: err, rest: r.Body}
		return nil, err
	case len(body) > max:
		r.Body = &prefixedBody{prefix: body, rest: r.Body}
		return nil, errBodyTooLarge
	}
	_ = r.Body.Close()
	r.Body = io.NopCloser(bytes.NewReader(body))
	return body, nil
}

// prefixedBody is a request body of which prefix was already read: it
// gives prefix again, then err if reading stopped on one, else the rest.
// Close closes the original body.
type prefixedBody struct {
	prefix []byte
	err    error
	rest   io.ReadCloser
}

// Read implements io.Reader.
func (b *prefixedBody) Read(p []byte) (int, error) {
	if len(b.prefix) > 0 {
		n := copy(p, b.prefix)
		b.prefix = b.prefix[n:]
		return n, nil
	}
	if b.err != nil {
		return 0, b.err
	}
	return b.rest.Read(p)
}

// Close implements io.Closer.
func (b *prefixedBody) Close() error { return b.rest.Close() }

// validKey reports whether key is 1 to max printable ASCII characters.
func validKey(key string, max int) bool {
	if key == "" || len(key) > max {
		return false
	}
	for i := 0; i < len(key); i++ {
		if key[i] < 0x21 || key[i] > 0x7e {
			return false
		}
	}
	return true
}
