package classify

import "net/http"

// headerValue returns the first value of the header key, or "". key must be in
// canonical form (textproto.CanonicalMIMEHeaderKey: "X-Ratelimit-Reset"),
// as every name the classifier reads is: it is h.Get(key) without
// canonicalizing key again on every call, which for a name not written
// canonically ("X-RateLimit-Reset") allocates.
func headerValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}
