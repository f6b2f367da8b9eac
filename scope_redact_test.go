package toolerr

import (
	"context"
	"strings"
	"testing"
)

// redactTestKey is a context key of the test.
type redactTestKey struct{}

// TestRedactUsesTheScopesFilter: Redact passes text through the redact
// filter of the request scope, in contexts derived from it too, and says
// so; without a scope or a filter it returns the text and false.
func TestRedactUsesTheScopesFilter(t *testing.T) {
	if out, ok := Redact(context.Background(), "sk_live_x"); ok || out != "sk_live_x" {
		t.Fatalf("no scope: %q %v", out, ok)
	}
	var s RequestScope
	s.Init(context.Background(), "req-1", "")
	if out, ok := Redact(&s, "sk_live_x"); ok || out != "sk_live_x" {
		t.Fatalf("no filter: %q %v", out, ok)
	}
	s.SetRedactFilter(func(text string) string { return strings.ReplaceAll(text, "sk_live_x", "[REDACTED]") })
	derived := context.WithValue(&s, redactTestKey{}, 1)
	if out, ok := Redact(derived, "key sk_live_x"); !ok || out != "key [REDACTED]" {
		t.Fatalf("filter: %q %v", out, ok)
	}
}
