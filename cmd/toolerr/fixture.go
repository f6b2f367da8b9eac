package main

import (
	"bytes"
	"encoding/json"
	"fmt"
	"net/http"
	"os"
	"path/filepath"
	"sort"
	"time"
)

// fixtureSpec is the .json half of a fixture, in the format of
// testdata/vendors (see translate's fixtures_test.go).
type fixtureSpec struct {
	Request struct {
		Method string `json:"method"`
		Host   string `json:"host"`
	} `json:"request"`
	Now    string `json:"now,omitempty"`
	Expect struct {
		Code         string  `json:"code"`
		Category     string  `json:"category"`
		Retryable    bool    `json:"retryable"`
		RetryAfterMS int64   `json:"retry_after_ms,omitempty"`
		Field        string  `json:"field,omitempty"`
		Vendor       string  `json:"vendor"`
		VendorCode   *string `json:"vendor_code,omitempty"`
	} `json:"expect"`
}

// writeFixture writes c as DIR/<vendor>_<status>_<n>.http, the response
// as captured but for its Set-Cookie headers (a session must not land in a
// test file), and the .json of what the translators made of it. It returns
// the path without extension.
func writeFixture(dir string, n int, c captured, r classifiedJSON) (string, error) {
	vendor := r.Vendor
	if vendor == "" {
		vendor = "unknown"
	}
	base, err := freeName(dir, fmt.Sprintf("%s_%d", safeName(vendor), c.Status), n)
	if err != nil {
		return "", err
	}

	var h bytes.Buffer
	proto := c.Proto
	if proto == "" || proto == "HTTP/2.0" {
		proto = "HTTP/1.1" // what http.ReadResponse, which the fixture test uses, reads
	}
	fmt.Fprintf(&h, "%s %d %s\r\n", proto, c.Status, reasonOf(c))
	names := make([]string, 0, len(c.Header))
	for name := range c.Header {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		if http.CanonicalHeaderKey(name) == "Set-Cookie" || http.CanonicalHeaderKey(name) == "Content-Length" {
			continue // the fixture's body runs to the end of the file
		}
		for _, v := range c.Header[name] {
			fmt.Fprintf(&h, "%s: %s\r\n", name, v)
		}
	}
	h.WriteString("\r\n")
	h.Write(c.Body)

	var js []byte
	var spec fixtureSpec
	spec.Request.Method, spec.Request.Host = c.Method, c.Host
	spec.Now = r.now.UTC().Format(time.RFC3339)
	e := r.err
	spec.Expect.Code, spec.Expect.Category, spec.Expect.Retryable = e.Code, string(e.Category), e.Retryable
	spec.Expect.RetryAfterMS, spec.Expect.Field, spec.Expect.Vendor = e.RetryAfter.Milliseconds(), e.Field, r.Vendor
	if r.VendorCode != "" {
		spec.Expect.VendorCode = &r.VendorCode
	}
	js, err = json.MarshalIndent(spec, "", " ")
	if err != nil {
		return "", err
	}
	if err := os.WriteFile(base+".http", h.Bytes(), 0o644); err != nil {
		return "", err
	}
	if err := os.WriteFile(base+".json", append(js, '\n'), 0o644); err != nil {
		return "", err
	}
	return base, nil
}

// freeName returns DIR/<stem>_<k> for the first k from n whose .http and
// .json do not exist: a fixture never overwrites another.
func freeName(dir, stem string, n int) (string, error) {
	for k := n; k < n+1000; k++ {
		base := filepath.Join(dir, fmt.Sprintf("%s_%d", stem, k))
		_, errHTTP := os.Stat(base + ".http")
		_, errJSON := os.Stat(base + ".json")
		if os.IsNotExist(errHTTP) && os.IsNotExist(errJSON) {
			return base, nil
		}
	}
	return "", fmt.Errorf("%s: no free fixture name for %s", dir, stem)
}

// reasonOf is the reason phrase of c's status line.
func reasonOf(c captured) string {
	if c.Reason != "" {
		return c.Reason
	}
	return http.StatusText(c.Status)
}

// safeName keeps the letters, digits, '-' and '_' of s.
func safeName(s string) string {
	b := []byte(s)
	out := b[:0]
	for _, c := range b {
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' {
			out = append(out, c)
		}
	}
	if len(out) == 0 {
		return "unknown"
	}
	return string(out)
}
