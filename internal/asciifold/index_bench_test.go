package asciifold

import (
	"strings"
	"testing"
)

// BenchmarkIndex measures Index on what its callers search: a short
// vendor message for a host name (the sanitizer's prose check), an Accept
// header, and a proxy's error page for a signature.
func BenchmarkIndex(b *testing.B) {
	page := []byte(strings.Repeat("<p>Lorem ipsum dolor sit amet, consectetur.</p>\n", 80) + "<TITLE>Just a moment...</TITLE>")
	for _, bc := range []struct {
		name, s, needle string
	}{
		{"message", "Rate exceeded", "localhost"},
		{"message_64", "The security token included in the request is invalid.", "localhost"},
		{"accept", "application/json, application/problem+json;q=0.9", "problem+json"},
	} {
		b.Run(bc.name, func(b *testing.B) {
			for b.Loop() {
				Index(bc.s, bc.needle)
			}
		})
	}
	b.Run("page", func(b *testing.B) {
		b.SetBytes(int64(len(page)))
		for b.Loop() {
			Index(page, "just a moment")
		}
	})
}
