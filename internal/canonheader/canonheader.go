// Package canonheader reads response and request headers by their
// canonical names without canonicalizing the name again on every read.
package canonheader

import "net/http"

// Value returns the first value of the header key, or "". key must be in
// canonical form (textproto.CanonicalMIMEHeaderKey: "Cf-Ray",
// "X-Ratelimit-Reset"): Value is then h.Get(key) without canonicalizing
// key on every call, which costs a pass over the name, and for a name not
// written canonically ("X-RateLimit-Reset") an allocation. The toolerr
// packages read dozens of headers per error this way; each package tests
// that every name it passes is canonical.
func Value(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}
