package sanitize

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// Each test of this file pins a break found by adversarial review and
// fuzzing; the "Actual" of its comment is what the code did before the fix.

// TestAdversarialBareBearerUnicodeSpace: a bearer credential next to white
// space that is not ASCII (a no-break space, the ideographic space of
// Japanese and Chinese messages, NEL) or next to DEL is missed, and then
// found when the output is cleaned again. matchBareBearer and longRuns
// (secret_bearer.go, secret_prefilter.go) split words at bytes <= ' '
// only, so the word read is "Zq8v…3cR\u00a0(expired)", which fails
// isB64Token; collapseAndCut then turns the no-break space into ' ', and
// the next Clean sees a clean word.
//
// Actual: Clean("rejected Bearer Zq8vL2xK9pT4wN7mB3cR\u00a0(expired)") =
// "rejected Bearer Zq8vL2xK9pT4wN7mB3cR (expired)" (a leak), and cleaning
// that gives "rejected Bearer [REDACTED:authorization] (expired)" (not
// idempotent). Expected: the second output from the first Clean.
func TestAdversarialBareBearerUnicodeSpace(t *testing.T) {
	s := New(WithHostname(""))
	const tok = "Zq8vL2xK9pT4wN7mB3cR"
	for _, in := range []string{
		"rejected Bearer " + tok + "\u00a0(expired)",
		"rejected Bearer " + tok + "\u3000エラー",
		"rejected Bearer " + tok + "\u0085next",
		"rejected Bearer " + tok + "\x7f",
		"Bearer\u00a0" + tok,
	} {
		out, _ := s.Clean(in)
		assert.NotContains(t, out, tok, "leak, in: %q", in)
		again, _ := s.Clean(out)
		assert.Equal(t, out, again, "not idempotent, in: %q", in)
	}
}

// TestAdversarialIPv4CompatibleIdempotence: an IPv6 address with an
// embedded private IPv4 whose leading groups are zeros. The first pass
// leaves the IPv6 candidate ("0::10.0.0.1" = ::a00:1, not private) and
// redacts the IPv4 inside it; the second pass then reads "0::" before the
// placeholder as the unspecified address and redacts it too (matchIPv6,
// hosts.go). Found by fuzzing ("0:\xe6000::10.0.0.0").
//
// Actual: Clean("bind 0::10.0.0.1 failed") = "bind 0::[private-ip] failed",
// and Clean of that = "bind [private-ip][private-ip] failed". Expected:
// Clean(Clean(x)) == Clean(x).
func TestAdversarialIPv4CompatibleIdempotence(t *testing.T) {
	s := New(WithHostname(""))
	for _, in := range []string{
		"bind 0::10.0.0.1 failed",
		"bind [0::10.0.0.1]:80 failed",
		"bind 0:0::192.168.1.1",
		"addr é000::10.0.0.1",
	} {
		out, _ := s.Clean(in)
		again, _ := s.Clean(out)
		assert.Equal(t, out, again, "in: %q", in)
	}
}

// TestAdversarialPEMEndOnlyIdempotence: a malformed private key whose
// BEGIN line has no label and runs into the body ("-----BEGIN MIIB…"),
// ended by "-----END PRIVATE KEY-----" on the same line. matchPEMEnd
// (secret_pem.go) redacts back from the END line over the base64 word but
// leaves "-----BEGIN ", and the next Clean reads "-----BEGIN
// [REDACTED:private-key]" as an unterminated block and redacts the rest.
// Found by fuzzing ("-----BEGIN 0000000000000000-----ENDPRIVATEKEY-----").
//
// Actual: "bad pem: -----BEGIN [REDACTED:private-key]", then
// "bad pem: [REDACTED:private-key]". Expected: Clean(Clean(x)) == Clean(x).
func TestAdversarialPEMEndOnlyIdempotence(t *testing.T) {
	s := New(WithHostname(""))
	for _, in := range []string{
		"bad pem: -----BEGIN MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAu1SU1LfVLPHCozMxH2Mo-----END PRIVATE KEY-----",
		"-----BEGIN 0000000000000000-----ENDPRIVATEKEY-----",
	} {
		out, _ := s.Clean(in)
		again, _ := s.Clean(out)
		assert.Equal(t, out, again, "in: %q", in)
	}
}
