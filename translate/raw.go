package translate

import (
	"net/http"
	"strings"

	"github.com/toolerr/toolerr/internal/asciifold"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// Raw is one downstream response as translators read it. Translators must
// not modify it, and must not keep it, its Body or its Header after the
// call returns: the middleware reuses the Raw of a captured response once
// the request is done. A Raw is read by one goroutine at a time.
type Raw struct {
	// Method is the request's method; empty means GET.
	Method string
	// Host is the request's host name in lower case, without port; empty
	// when unknown, as for a response the middleware captured.
	Host string
	// Status is the response's HTTP status.
	Status int
	// Header holds the response headers. Under the middleware it is the
	// response's own header map, shown to translators without a copy:
	// read it during the call, never modify it, and do not keep it (nor an
	// Outcome holding it) after the call returns.
	Header http.Header
	// Body is the start of the response body, at most the body cap.
	Body []byte
	// Truncated is true when the body was longer than Body.
	Truncated bool
	// Vendor is the vendor the caller named (toolerr.RecordVendor), or "".
	Vendor string
	// Idempotent is true when the request carried an idempotency key.
	Idempotent bool

	// obj caches the body read as a JSON object, so that every translator
	// of the response shares one reading; objOf is the body it was read
	// from (a changed Body is read again). errObj caches its "error"
	// member.
	obj, errObj jsonObject
	objOf       []byte
	objDone     bool

	// read holds the headers every gateway asks about, read once when a
	// Set starts translating the response and forgotten when it returns
	// (a caller may change Header between two translations).
	read headerReading
}

// headerReading is the part of a response's headers the translators of a
// Set ask about over and over.
type headerReading struct {
	ok          bool
	contentType string // as ContentType returns it
	server      string // as serverHeader returns it
}

// beginReading reads the headers the translators share; endReading
// forgets them.
func (r *Raw) beginReading() {
	r.read = headerReading{ok: true, contentType: contentTypeOf(r.Header), server: serverHeader(r.Header)}
}

// endReading forgets what beginReading read.
func (r *Raw) endReading() { r.read = headerReading{} }

// server returns the Server header as serverHeader reads it.
func (r *Raw) server() string {
	if r.read.ok {
		return r.read.server
	}
	return serverHeader(r.Header)
}

// object returns the body read as a JSON object (see readObject), or nil
// when the body is not one. The first call reads; later calls, by any
// translator, reuse the reading while Body is unchanged. A Raw is used by
// one goroutine at a time, as the Set uses it.
func (r *Raw) object() jsonObject {
	if !r.objDone || !sameBytes(r.objOf, r.Body) {
		r.obj, r.objOf, r.objDone = readObject(r.Body), r.Body, true
		r.errObj = r.obj.obj("error")
	}
	return r.obj
}

// errorObject returns the body's "error" member as a JSON object, or nil:
// the shape most vendors use ({"error":{…}}).
func (r *Raw) errorObject() jsonObject {
	r.object()
	return r.errObj
}

// sameBytes reports whether a and b are the same slice of the same array.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// ContentType returns the media type of the response, lower case, without
// parameters: "application/json" for "application/json; charset=utf-8".
func (r *Raw) ContentType() string {
	if r.read.ok {
		return r.read.contentType
	}
	return contentTypeOf(r.Header)
}

// contentTypeOf is ContentType of the headers h.
func contentTypeOf(h http.Header) string {
	ct := canonheader.Value(h, "Content-Type")
	if i := strings.IndexByte(ct, ';'); i >= 0 {
		ct = ct[:i]
	}
	return strings.ToLower(strings.TrimSpace(ct))
}

// IsJSON reports whether the body is JSON: a JSON media type (…/json,
// …+json), or no media type and a body that starts with '{' or '['.
func (r *Raw) IsJSON() bool {
	ct := r.ContentType()
	if strings.HasSuffix(ct, "/json") || strings.HasSuffix(ct, "+json") {
		return true
	}
	b := trimLeftSpace(r.Body)
	return (ct == "" || ct == "text/plain") && len(b) > 0 && (b[0] == '{' || b[0] == '[')
}

// IsXML reports whether the body is XML: an XML media type, or a body that
// starts with '<?xml' or a '<' followed by a letter and is not HTML.
func (r *Raw) IsXML() bool {
	ct := r.ContentType()
	if strings.HasSuffix(ct, "/xml") || strings.HasSuffix(ct, "+xml") {
		return true
	}
	if ct == "text/html" {
		return false
	}
	b := trimLeftSpace(r.Body)
	if len(b) >= 5 && string(b[:5]) == "<?xml" {
		return true
	}
	return ct == "" && len(b) > 1 && b[0] == '<' && isLetter(b[1]) && !asciifold.HasPrefix(b, "<html") && !asciifold.HasPrefix(b, "<!doctype")
}

// IsHTML reports whether the body is an HTML page.
func (r *Raw) IsHTML() bool {
	if r.ContentType() == "text/html" {
		return true
	}
	b := trimLeftSpace(r.Body)
	return asciifold.HasPrefix(b, "<!doctype html") || asciifold.HasPrefix(b, "<html")
}

// bodyStart returns the first byte of the body after white space, or 0.
func (r *Raw) bodyStart() byte {
	if b := trimLeftSpace(r.Body); len(b) > 0 {
		return b[0]
	}
	return 0
}

// trimLeftSpace drops leading white space and a UTF-8 byte order mark.
func trimLeftSpace(b []byte) []byte {
	for len(b) > 0 {
		switch {
		case b[0] == ' ' || b[0] == '\t' || b[0] == '\r' || b[0] == '\n':
			b = b[1:]
		case len(b) >= 3 && b[0] == 0xef && b[1] == 0xbb && b[2] == 0xbf:
			b = b[3:]
		default:
			return b
		}
	}
	return b
}

// isLetter reports whether c is an ASCII letter.
func isLetter(c byte) bool { return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' }
