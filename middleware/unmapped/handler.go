package unmapped

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"
	"strings"
	"time"
)

// ServeHTTP lists the recent samples, newest first: as JSON,
// {"samples":[…]} in application/json, or as plain text when the request
// prefers text/plain in its Accept header. It answers GET and HEAD, and
// 405 to any other method. The response is never cached (Cache-Control:
// no-store) nor sniffed (X-Content-Type-Options: nosniff).
//
// It is an operator endpoint: the samples are sanitized, yet they are
// about the service's vendors and traffic. Mount it behind the service's
// own authentication, on an internal listener or route, never on the
// routes agents call.
func (s *Sampler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	if r.Method != http.MethodGet && r.Method != http.MethodHead {
		h.Set("Allow", "GET, HEAD")
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	samples := s.Samples()
	if samples == nil {
		samples = []Sample{}
	}
	var body []byte
	if prefersText(r.Header.Values("Accept")) {
		h.Set("Content-Type", "text/plain; charset=utf-8")
		body = appendText(nil, samples)
	} else {
		h.Set("Content-Type", "application/json")
		b, err := json.Marshal(struct {
			Samples []Sample `json:"samples"`
		}{samples})
		if err != nil { // only a time outside the years 0 to 9999 (a clock of WithClock) does not encode
			http.Error(w, "cannot encode the samples", http.StatusInternalServerError)
			return
		}
		body = append(b, '\n')
	}
	h.Set("Content-Length", strconv.Itoa(len(body)))
	if r.Method == http.MethodHead {
		return
	}
	_, _ = w.Write(body) // the client went away: nothing to do
}

// appendText appends the samples as text, one block each: a line of the
// sample's facts, then its headers and body indented.
func appendText(b []byte, samples []Sample) []byte {
	if len(samples) == 0 {
		return append(b, "no unmapped response sampled\n"...)
	}
	for i, smp := range samples {
		if i > 0 {
			b = append(b, '\n')
		}
		b = smp.Time.UTC().AppendFormat(b, time.RFC3339)
		b = append(b, ' ')
		b = append(b, smp.Vendor...)
		b = append(b, " status="...)
		b = strconv.AppendInt(b, int64(smp.Status), 10)
		b = append(b, " code="...)
		b = append(b, smp.Code...)
		if smp.VendorCode != "" {
			b = append(b, " vendor_code="...)
			b = append(b, smp.VendorCode...)
		}
		b = append(b, " suppressed="...)
		b = strconv.AppendInt(b, int64(smp.Suppressed), 10)
		b = append(b, '\n')
		names := make([]string, 0, len(smp.Header))
		for name := range smp.Header {
			names = append(names, name)
		}
		slices.Sort(names)
		for _, name := range names {
			b = append(b, "  "+name+": "...)
			b = append(b, smp.Header[name]...)
			b = append(b, '\n')
		}
		b = append(b, "  body ("...)
		b = strconv.AppendInt(b, int64(smp.BodyBytes), 10)
		b = append(b, " bytes): "...)
		b = append(b, smp.Body...)
		b = append(b, '\n')
	}
	return b
}

// prefersText reports whether the Accept header values rank text/plain
// above JSON: text/plain is named with a quality above zero, above that of
// application/json and at least that of a wildcard ("*/*",
// "application/*"), which is less specific.
func prefersText(accept []string) bool {
	text, json, wildcard := -1.0, -1.0, -1.0
	for _, field := range accept {
		for part := range strings.SplitSeq(field, ",") {
			media, params, _ := strings.Cut(part, ";")
			q := quality(params)
			switch strings.ToLower(strings.TrimSpace(media)) {
			case "text/plain":
				text = max(text, q)
			case "application/json":
				json = max(json, q)
			case "application/*", "*/*":
				wildcard = max(wildcard, q)
			}
		}
	}
	return text > 0 && text > json && text >= wildcard
}

// quality returns the q parameter of a media range's parameters, 1 when
// there is none or it does not parse.
func quality(params string) float64 {
	for p := range strings.SplitSeq(params, ";") {
		k, v, ok := strings.Cut(strings.TrimSpace(p), "=")
		if ok && strings.EqualFold(strings.TrimSpace(k), "q") {
			if q, err := strconv.ParseFloat(strings.TrimSpace(v), 64); err == nil && q >= 0 && q <= 1 {
				return q
			}
			return 1
		}
	}
	return 1
}
