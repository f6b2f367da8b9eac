package canonheader

import (
	"net/http"
	"testing"
)

func TestValueIsGetForCanonicalNames(t *testing.T) {
	h := http.Header{}
	h.Add("x-ratelimit-reset", "30")
	h.Add("Retry-After", "5")
	h.Add("Retry-After", "7")
	h["Empty"] = []string{}
	for _, key := range []string{"X-Ratelimit-Reset", "Retry-After", "Empty", "Absent"} {
		if got, want := Value(h, key), h.Get(key); got != want {
			t.Errorf("Value(%q) = %q, Get = %q", key, got, want)
		}
	}
	if got := Value(nil, "Retry-After"); got != "" {
		t.Errorf("Value(nil) = %q", got)
	}
}
