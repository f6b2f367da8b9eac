package unmapped

import (
	"maps"
	"net/http"
	"strings"
	"time"
	"unicode"

	"github.com/toolerr/toolerr/internal/textcut"
	"github.com/toolerr/toolerr/middleware/sanitize"
)

// Response is an unmapped downstream response as it is offered to a
// [Sampler]: nothing of it needs to be sanitized yet.
type Response struct {
	// Vendor is the vendor the response was attributed to; "" reads as
	// "unknown".
	Vendor string
	// Status is the upstream HTTP status, 0 when there was none.
	Status int
	// Header is the response's header; only the allow-listed ones are
	// read.
	Header http.Header
	// Body is the response's body, or its start.
	Body []byte
	// Code is the toolerr code the response was given, such as
	// UPSTREAM_UNCLASSIFIED.
	Code string
	// VendorCode is the vendor's error code as it was read from the
	// response, if any.
	VendorCode string
}

// Sample is what a [Sampler] keeps of one unmapped response. Every text
// in it has been sanitized and cut.
type Sample struct {
	// Time is when the response was offered.
	Time time.Time `json:"time"`
	// Vendor is the vendor the response was attributed to, sanitized and
	// at most 64 bytes; "unknown" when none was.
	Vendor string `json:"vendor"`
	// Status is the upstream HTTP status, 0 when there was none.
	Status int `json:"status"`
	// Code is the toolerr code the response was given.
	Code string `json:"code"`
	// VendorCode is the vendor's code as read, sanitized and at most 128
	// bytes.
	VendorCode string `json:"vendor_code,omitempty"`
	// Header holds the allow-listed headers the response had, by canonical
	// name; several values are joined by ", ". Each value is sanitized and
	// at most 256 bytes.
	Header map[string]string `json:"header,omitempty"`
	// Body is the sanitized start of the body, at most the body cap.
	Body string `json:"body"`
	// BodyBytes is the length of the body as offered.
	BodyBytes int `json:"body_bytes"`
	// Suppressed counts the responses of the same vendor and status that
	// were not sampled since the previous sample of the pair.
	Suppressed int `json:"suppressed"`
}

// clone returns s with its own header map.
func (s Sample) clone() Sample {
	s.Header = maps.Clone(s.Header)
	return s
}

// Bounds of the texts of a sample other than the body: how much of each is
// read (and sanitized), and how long it is kept. Each is read well beyond
// what is kept, so that the text is cut after the sanitizer saw it whole,
// not before: a cut before sanitizing can leave the first groups of a card
// number written in digits the cut does not know (full-width ones) where
// no rule recognizes them.
const (
	maxFieldRead  = 1 << 10
	maxVendorKey  = 64 // also the longest vendor name kept
	maxCode       = 64
	maxVendorCode = 128
	maxHeader     = 256
	// maxHeaderValues is how many values of one header are read.
	maxHeaderValues = 4
)

// fields turns the texts of a response into what a sample keeps. It is
// immutable after New.
type fields struct {
	san       *sanitize.Sanitizer
	headers   []string // canonical names
	bodyBytes int
}

// sample builds the sample of in, offered at now.
func (f *fields) sample(in Response, now time.Time, suppressed int) Sample {
	vendor := f.text(head(in.Vendor, maxFieldRead), maxVendorKey)
	if vendor == "" {
		vendor = "unknown"
	}
	s := Sample{
		Time:       now,
		Vendor:     vendor,
		Status:     in.Status,
		Code:       f.text(head(in.Code, maxFieldRead), maxCode),
		VendorCode: f.text(head(in.VendorCode, maxFieldRead), maxVendorCode),
		BodyBytes:  len(in.Body),
		Suppressed: suppressed,
	}
	s.Body = f.text(head(in.Body, MaxRead), f.bodyBytes)
	for _, name := range f.headers {
		vs := in.Header[name]
		if len(vs) == 0 {
			continue
		}
		v := f.text(head(strings.Join(vs[:min(len(vs), maxHeaderValues)], ", "), maxFieldRead), maxHeader)
		if v == "" {
			continue
		}
		if s.Header == nil {
			s.Header = make(map[string]string)
		}
		s.Header[name] = v
	}
	return s
}

// head returns the start of raw that is read, at most read bytes: raw
// itself when it fits, else raw cut at a rune without the word the cut
// runs through, which may be the start of a secret no rule recognizes
// once cut (and without the groups of a number the cut runs through).
func head[T ~string | ~[]byte](raw T, read int) string {
	if len(raw) <= read {
		return string(raw)
	}
	return string(textcut.DropLastWord(textcut.AtRune(raw, read)))
}

// text returns the text read as a sample keeps it: sanitized, its control
// characters replaced, and cut to keep bytes at a word, or at a rune when
// a word boundary would keep less than half, ending with "…". The text is
// sanitized already when it is cut, so the cut cannot split a secret.
func (f *fields) text(read string, keep int) string {
	if read == "" {
		return ""
	}
	out := strings.Map(visible, f.san.CleanText(read))
	if len(out) <= keep {
		return out
	}
	const mark = "…"
	limit := keep - len(mark)
	cut := textcut.AtWord(out, limit)
	if len(cut) < limit/2 {
		cut = textcut.AtRune(out, limit)
	}
	return cut + mark
}

// visible replaces the characters a terminal or log viewer would act on
// rather than show (control characters, and the overrides of the
// bidirectional text algorithm, which reorder what is shown) with U+FFFD.
func visible(r rune) rune {
	if unicode.IsControl(r) || r >= '\u202a' && r <= '\u202e' || r >= '\u2066' && r <= '\u2069' {
		return unicode.ReplacementChar
	}
	return r
}
