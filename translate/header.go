package translate

import "net/http"

// headerValue returns the first value of the header key, or "". key must
// be in canonical form (textproto.CanonicalMIMEHeaderKey: "Cf-Ray",
// "X-Amzn-Requestid"): it is h.Get(key) without canonicalizing key again,
// which every translator would otherwise pay on each header it reads.
func headerValue(h http.Header, key string) string {
	if v := h[key]; len(v) > 0 {
		return v[0]
	}
	return ""
}
