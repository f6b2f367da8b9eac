package translate

import (
	"bytes"
	"strings"
)

// The plain-text debug page of Django (what DEBUG = True answers a client
// that does not accept HTML) starts with "IntegrityError at /orders/",
// then the exception's value on the next lines, then "Request Method:",
// the settings and the traceback. Its first line names the exception and
// the path, but the value is the one line an agent can act on, so the
// message is "IntegrityError: duplicate key value violates unique
// constraint …".

// djangoTextMarker is a line only Django's plain-text debug page holds
// near its start.
var djangoTextMarker = []byte("\nRequest Method: ")

// debugTextHeadline returns "Exception: value" of a Django plain-text
// debug page, or "" when b is none.
func debugTextHeadline(b []byte) string {
	head := pageHead(b)
	marker := bytes.Index(head, djangoTextMarker)
	if marker < 0 {
		return ""
	}
	first, rest, _ := bytes.Cut(head[:marker], []byte("\n"))
	name, path, ok := strings.Cut(strings.TrimSpace(string(first)), " at ")
	if !ok || !isExceptionName(name) || !strings.HasPrefix(path, "/") || strings.ContainsAny(path, " \t") {
		return ""
	}
	value := firstTextLine(rest)
	if value == "" {
		return ""
	}
	return trimAtWord(name+": "+value, pageMessageMax)
}

// isExceptionName reports whether s is a Python exception's name, bare or
// dotted (django.db.utils.IntegrityError): identifiers joined by '.'.
func isExceptionName(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for _, part := range strings.Split(s, ".") {
		if part == "" || part[0] >= '0' && part[0] <= '9' {
			return false
		}
		for k := 0; k < len(part); k++ {
			if c := part[k]; !(c == '_' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9') {
				return false
			}
		}
	}
	return true
}
