package sanitize

import "testing"

// TestBareBearer checks credentials quoted with their scheme but without
// a header name, and the prose and stand-ins after "Bearer" that stay.
func TestBareBearer(t *testing.T) {
	const tok = "9f8a7b6c5d4e3f2a1b0c9d8e7f6a5b4c"
	checkCleanCases(t, []cleanCase{
		{"message", "auth failed: Bearer " + tok, "auth failed: Bearer [REDACTED:authorization]"},
		{"lower case, quoted", `rejected "bearer ` + tok + `".`, `rejected "bearer [REDACTED:authorization]".`},
		{"upper case, tab", "BEARER\t" + tok + ", retry", "BEARER [REDACTED:authorization], retry"},
		{"opaque with symbols", "Bearer Zk3pQ9rT2vW8yB1nM4xL/a+b=", "Bearer [REDACTED:authorization]"},
		{"header form still one redaction", "Authorization: Bearer " + tok, "Authorization: Bearer [REDACTED:authorization]"},
		{"prose", "Bearer token expired for this account", "Bearer token expired for this account"},
		{"short word", "Bearer abc123 was rejected", "Bearer abc123 was rejected"},
		{"stand-in", "use Bearer $ACCESS_TOKEN_FROM_VAULT here", "use Bearer $ACCESS_TOKEN_FROM_VAULT here"},
		{"filler", "Bearer xxxxxxxxxxxxxxxxxxxxxxxx", "Bearer xxxxxxxxxxxxxxxxxxxxxxxx"},
		{"word ending in bearer", "Flagbearer " + tok, "Flagbearer " + tok},
		{"line breaks between", "Bearer\n\n" + tok, "Bearer [REDACTED:authorization]"},
		{"a URL is no bearer token", "Bearer\n\namqp://app:[REDACTED:dsn-password]@db.example.com:5432/main", "Bearer amqp://app:[REDACTED:dsn-password]@db.example.com:5432/main"},
		{"long prose word", "Bearer authenticationfailures were logged", "Bearer authenticationfailures were logged"},
	})
}
