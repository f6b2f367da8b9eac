package main

import (
	"bufio"
	"bytes"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/textproto"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Bounds of the captures classify reads.
const (
	// maxCaptureFile bounds a capture file, raw or HAR.
	maxCaptureFile = 32 << 20
	// maxResponseBody bounds the body kept of one response; the rest is
	// dropped and the response marked truncated.
	maxResponseBody = 1 << 20
	// maxHeaderBytes bounds the status lines and headers of a raw capture.
	maxHeaderBytes = 1 << 20
	// maxInterim bounds the interim responses (100 Continue, a proxy's
	// 200 Connection established) skipped before the final one.
	maxInterim = 8
	// maxEntries bounds the entries read of a HAR file.
	maxEntries = 10000
)

// captured is one HTTP response read from a capture file.
type captured struct {
	Entry     int // index in the HAR log, 0 for a raw capture
	Method    string
	Host      string // lower case, no port; "" when unknown
	Proto     string // "HTTP/1.1", "HTTP/2"
	Status    int
	Reason    string
	Header    http.Header
	ReqHeader http.Header // the request's headers (a HAR file's); an Idempotency-Key marks a keyed call
	Body      []byte
	Truncated bool
	Started   time.Time // when the exchange happened, zero when unknown
}

// parseCapture reads data as a HAR 1.2 log when it is a JSON object, else
// as one raw response as curl -i prints it.
func parseCapture(data []byte) ([]captured, error) {
	if len(data) > maxCaptureFile {
		return nil, fmt.Errorf("capture of %d bytes is over %d", len(data), maxCaptureFile)
	}
	if t := bytes.TrimLeft(data, " \t\r\n\ufeff"); len(t) > 0 && t[0] == '{' {
		return parseHAR(data)
	}
	c, err := parseRaw(data)
	if err != nil {
		return nil, err
	}
	return []captured{c}, nil
}

// parseRaw reads a status line, headers and a body that runs to the end
// of data. What curl -i -L prints before the final response is skipped:
// interim responses, a proxy's answer to CONNECT, and redirects followed
// by the next response (a redirect's body measured by its Content-Length,
// none without one). Header lines may end in CRLF or LF.
func parseRaw(data []byte) (captured, error) {
	rest := data
	for range maxInterim + 1 {
		rest = bytes.TrimLeft(rest, "\r\n")
		end := headerEnd(rest)
		if end < 0 {
			if len(rest) > maxHeaderBytes {
				return captured{}, errors.New("headers over 1 MiB or not ended by a blank line")
			}
			end = len(rest) // headers without a body
		}
		if end > maxHeaderBytes {
			return captured{}, errors.New("headers over 1 MiB")
		}
		c, err := parseHead(rest[:end])
		if err != nil {
			return captured{}, err
		}
		rest = rest[end:]
		if c.Status < 200 || c.Status == http.StatusOK && strings.EqualFold(c.Reason, "Connection established") {
			continue // curl prints interim and proxy CONNECT responses before the final one
		}
		if next, ok := afterRedirect(c, rest); ok {
			rest = next
			continue
		}
		c.Body, c.Truncated = capBody(rest)
		return c, nil
	}
	return captured{}, fmt.Errorf("more than %d interim responses", maxInterim)
}

// afterRedirect returns what follows the body of c, a redirect, when it
// is another response, as curl -L prints it.
func afterRedirect(c captured, rest []byte) ([]byte, bool) {
	if c.Status < 300 || c.Status > 399 {
		return nil, false
	}
	n := 0
	if cl := c.Header.Get("Content-Length"); cl != "" {
		v, err := strconv.Atoi(cl)
		if err != nil || v < 0 || v > len(rest) {
			return nil, false
		}
		n = v
	}
	next := bytes.TrimLeft(rest[n:], "\r\n")
	if _, err := parseHead(firstLine(next)); err != nil {
		return nil, false
	}
	return next, true
}

// firstLine returns b up to its first line end.
func firstLine(b []byte) []byte {
	if i := bytes.IndexByte(b, '\n'); i >= 0 {
		return b[:i+1]
	}
	return b
}

// headerEnd returns the index just past the blank line ending the head of
// b, or -1.
func headerEnd(b []byte) int {
	crlf := bytes.Index(b, []byte("\r\n\r\n"))
	lf := bytes.Index(b, []byte("\n\n"))
	switch {
	case crlf >= 0 && (lf < 0 || crlf < lf):
		return crlf + 4
	case lf >= 0:
		return lf + 2
	}
	return -1
}

// parseHead reads a status line and its headers.
func parseHead(head []byte) (captured, error) {
	r := textproto.NewReader(bufio.NewReader(bytes.NewReader(head)))
	line, err := r.ReadLine()
	if err != nil {
		return captured{}, errors.New("no status line")
	}
	proto, status, ok := strings.Cut(line, " ")
	if !ok || !strings.HasPrefix(proto, "HTTP/") {
		return captured{}, fmt.Errorf("not an HTTP status line: %.80q", line)
	}
	codeText, reason, _ := strings.Cut(strings.TrimLeft(status, " "), " ")
	code, err := strconv.Atoi(codeText)
	if err != nil || len(codeText) != 3 || code < 100 {
		return captured{}, fmt.Errorf("bad status code in %.80q", line)
	}
	mime, err := r.ReadMIMEHeader()
	if err != nil && !errors.Is(err, io.EOF) && !errors.Is(err, io.ErrUnexpectedEOF) {
		return captured{}, fmt.Errorf("bad headers: %v", err) // EOF: a head without the blank line
	}
	return captured{Proto: proto, Status: code, Reason: strings.TrimSpace(reason), Header: http.Header(mime)}, nil
}

// capBody keeps at most maxResponseBody bytes of b.
func capBody(b []byte) ([]byte, bool) {
	if len(b) > maxResponseBody {
		return b[:maxResponseBody], true
	}
	return b, false
}

// harLog is the part of a HAR 1.2 file classify reads.
type harLog struct {
	Log struct {
		Entries []harEntry `json:"entries"`
	} `json:"log"`
}

type harEntry struct {
	StartedDateTime string `json:"startedDateTime"`
	Request         struct {
		Method  string      `json:"method"`
		URL     string      `json:"url"`
		Headers []harHeader `json:"headers"`
	} `json:"request"`
	Response struct {
		Status      int         `json:"status"`
		StatusText  string      `json:"statusText"`
		HTTPVersion string      `json:"httpVersion"`
		Headers     []harHeader `json:"headers"`
		Content     struct {
			Text     string `json:"text"`
			Encoding string `json:"encoding"`
		} `json:"content"`
	} `json:"response"`
}

type harHeader struct {
	Name  string `json:"name"`
	Value string `json:"value"`
}

// parseHAR reads the responses of a HAR log.
func parseHAR(data []byte) ([]captured, error) {
	var h harLog
	if err := json.Unmarshal(data, &h); err != nil {
		return nil, fmt.Errorf("not a HAR file: %v", err)
	}
	if len(h.Log.Entries) > maxEntries {
		return nil, fmt.Errorf("HAR file of %d entries is over %d", len(h.Log.Entries), maxEntries)
	}
	out := make([]captured, 0, len(h.Log.Entries))
	for i, e := range h.Log.Entries {
		c := captured{
			Entry: i, Method: strings.ToUpper(e.Request.Method), Proto: e.Response.HTTPVersion,
			Status: e.Response.Status, Reason: e.Response.StatusText, Header: http.Header{},
		}
		if u, err := url.Parse(e.Request.URL); err == nil {
			c.Host = strings.ToLower(u.Hostname())
		}
		addHeaders(c.Header, e.Response.Headers)
		c.ReqHeader = http.Header{}
		addHeaders(c.ReqHeader, e.Request.Headers)
		body := []byte(e.Response.Content.Text)
		if strings.EqualFold(e.Response.Content.Encoding, "base64") {
			decoded, err := base64.StdEncoding.DecodeString(e.Response.Content.Text)
			if err != nil {
				return nil, fmt.Errorf("entry %d: content is not base64: %v", i, err)
			}
			body = decoded
		}
		c.Body, c.Truncated = capBody(body)
		if t, err := time.Parse(time.RFC3339, e.StartedDateTime); err == nil {
			c.Started = t
		}
		out = append(out, c)
	}
	return out, nil
}

// addHeaders adds the HAR headers hs to h, leaving out HTTP/2
// pseudo-headers (":status"), which are not headers.
func addHeaders(h http.Header, hs []harHeader) {
	for _, hd := range hs {
		if hd.Name != "" && !strings.HasPrefix(hd.Name, ":") {
			h.Add(hd.Name, hd.Value)
		}
	}
}
