package translate

import (
	"bytes"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"

	"github.com/toolerr/toolerr/internal/canonheader"
)

// defaultSet is the Set of [Response]: the built-in translators over
// classify.New(nil), built once on first use.
var defaultSet = sync.OnceValue(func() *Set {
	s, err := NewSet(nil)
	if err != nil {
		// The built-in tables name only built-in codes; a test asserts it.
		return &Set{classifier: nil}
	}
	return s
})

// Default returns the Set that [Response] uses: the built-in translators
// over classify.New(nil), built once on first use and only read after.
// The mappers of SDK errors (the nested modules under mappers/) read an
// SDK's kept response with its Translate, so that an SDK's error and the
// same response relayed are read by one set of rules. Safe for concurrent
// use.
func Default() *Set { return defaultSet() }

// Response returns nil when resp is a success, else an *toolerr.Error that
// classifies it, with upstream filled (vendor, status, vendor code and
// request id), using the built-in translators and the default registry. It
// reads at most 64 KiB of the body and leaves resp.Body readable from the
// start, so the caller can still decode a success.
//
//	resp, err := client.Do(req)
//	if err != nil {
//		return err // the middleware classifies network errors
//	}
//	defer resp.Body.Close()
//	if err := translate.Response(resp); err != nil {
//		return err
//	}
//
// The vendor's message, field and string details reach the error through
// the default classifier's sanitizer (see classify.WithMessageFilter); to
// use a sanitizer of your own (registered secrets, your hostname), build a
// Set over a classifier that filters with it and call [Set.Response].
func Response(resp *http.Response) error {
	return defaultSet().Response(resp)
}

// Response is [Response] with this Set's translators, classifier and body
// cap.
func (s *Set) Response(resp *http.Response) error {
	if resp == nil || s.classifier == nil {
		return nil
	}
	r := Raw{Status: resp.StatusCode, Header: resp.Header}
	if req := resp.Request; req != nil {
		r.Method = req.Method
		if req.URL != nil {
			r.Host = hostName(req.URL.Host)
		}
		r.Idempotent = canonheader.Value(req.Header, "Idempotency-Key") != ""
	}
	if resp.StatusCode >= 400 || mayHoldError(resp) {
		r.Body, r.Truncated = peekBody(resp, s.bodyCap)
	}
	ctx := contextOf(resp)
	if e := s.Classify(ctx, &r); e != nil {
		if rec, ok := RetriesOf(ctx); ok {
			return rec.Apply(e)
		}
		return e
	}
	return nil
}

// mayHoldError reports whether a success may still be an error in its body:
// JSON (Slack, GraphQL) or XML (S3) bodies.
func mayHoldError(resp *http.Response) bool {
	ct := strings.ToLower(canonheader.Value(resp.Header, "Content-Type"))
	return strings.Contains(ct, "json") || strings.Contains(ct, "xml")
}

// peekBody reads up to max bytes of resp.Body and puts them back in front
// of the rest, so the caller reads the whole body as if nothing had been
// read. truncated is true when the body is longer than max.
func peekBody(resp *http.Response, max int) (body []byte, truncated bool) {
	if resp.Body == nil || resp.Body == http.NoBody {
		return nil, false
	}
	buf, err := io.ReadAll(io.LimitReader(resp.Body, int64(max)+1))
	rest := resp.Body
	resp.Body = readCloser{Reader: io.MultiReader(bytes.NewReader(buf), rest), Closer: rest}
	if err != nil {
		return buf[:min(len(buf), max)], true // a broken body: judge by what arrived
	}
	if len(buf) > max {
		return buf[:max], true
	}
	return buf, false
}

// readCloser joins a reader with the original body's closer.
type readCloser struct {
	io.Reader
	io.Closer
}

// hostName returns the lower-case host of a URL's host[:port].
func hostName(hostport string) string {
	if h, _, err := net.SplitHostPort(hostport); err == nil {
		hostport = h
	}
	return strings.ToLower(strings.Trim(hostport, "[]"))
}
