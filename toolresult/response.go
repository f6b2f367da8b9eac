package toolresult

import (
	"mime"
	"net/http"
	"strings"
	"time"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// parseRendering reads body, the body of the failed response resp, as one
// of toolerr's renderings: problem+json or the envelope, or, for a
// text/plain or text/markdown response, the observation. The error gets
// the response's request id and delay where the body lacks them, and is
// sanitized.
func parseRendering(resp *http.Response, body []byte) (*toolerr.Error, bool) {
	e, err := toolerr.Parse(body)
	if err != nil {
		if !textMedia(resp.Header.Get("Content-Type")) {
			return nil, false
		}
		m, ok := parseObservation(string(body))
		if !ok {
			return nil, false
		}
		e = m.toError()
		if resp.StatusCode >= 400 && resp.StatusCode <= 599 {
			e.Status = resp.StatusCode
		}
	}
	if e.RequestID == "" {
		if id := resp.Header.Get("X-Request-Id"); toolerr.ValidRequestID(id) {
			e.RequestID = id
		}
	}
	if e.RetryAfter == 0 {
		if d, ok := classify.RetryDelay(resp.Header, time.Now(), classify.DefaultMaxDelay); ok && d > 0 {
			e.RetryAfter = d
		}
	}
	return sanitized(withRanges(e)), true
}

// textMedia reports whether the media type of a Content-Type is one of
// the observation's, text/plain or text/markdown.
func textMedia(contentType string) bool {
	mt, _, err := mime.ParseMediaType(contentType)
	return err == nil && (mt == "text/plain" || mt == "text/markdown")
}

// withoutOwnCodeLine returns e without the code line that starts its
// detail when that line names e's own code and category: a text the
// parser did not recognise as an observation (one with a line of text
// after it, say) is classified as any other text, and its first line
// would otherwise come back after a code line of its own, twice
// prefixed. A code line naming another code is kept: it is what the
// server claimed, and the classification disagrees.
func withoutOwnCodeLine(e *toolerr.Error) *toolerr.Error {
	if e == nil {
		return e
	}
	category := " (" + string(e.Category) + ")"
	for _, prefix := range [...]string{e.Code + category, "**" + e.Code + "**" + category} {
		if rest, ok := strings.CutPrefix(e.Detail, prefix); ok && (rest == "" || rest[0] == ':') {
			return e.WithDetail(strings.TrimSpace(strings.TrimPrefix(rest, ":")))
		}
	}
	return e
}
