package sanitize

import (
	"encoding/json"
	"testing"
)

// TestJSONNumberMemberStaysJSON: a card number, a security code or a
// numeric credential that is the number value of a JSON member gets a
// quoted placeholder, so that a JSON body stays valid JSON; the same
// number inside a JSON string, or in prose, gets the bare placeholder.
func TestJSONNumberMemberStaysJSON(t *testing.T) {
	s := New()
	for _, tc := range []struct{ in, want string }{
		{`{"card": 4242424242424242, "cvc": 123}`, `{"card": "[card ending 4242]", "cvc": "[REDACTED:card-security-code]"}`},
		{`{"card":4242424242424242}`, `{"card":"[card ending 4242]"}`},
		{`{"password": 84512093, "ok": true}`, `{"password": "[REDACTED:password]", "ok": true}`},
		{`{"error":{"payment":{"card":4000056655665556}}}`, `{"error":{"payment":{"card":"[card ending 5556]"}}}`},
		// Inside a JSON string: the quote before the ':' is escaped.
		{`{"msg":"sent \"card\": 4242424242424242, declined"}`, `{"msg":"sent \"card\": [card ending 4242], declined"}`},
		{`{"msg":"card 4242424242424242 declined"}`, `{"msg":"card [card ending 4242] declined"}`},
	} {
		got, _ := s.Clean(tc.in)
		if got != tc.want {
			t.Errorf("Clean(%s)\n got %s\nwant %s", tc.in, got, tc.want)
		}
		if !json.Valid([]byte(got)) {
			t.Errorf("Clean(%s) = %s: not JSON", tc.in, got)
		}
		if again, _ := s.Clean(got); again != got {
			t.Errorf("Clean(Clean(%s)) = %s; want it unchanged", tc.in, again)
		}
		if r := s.Redact(tc.in); r != tc.want {
			t.Errorf("Redact(%s) = %s; want %s", tc.in, r, tc.want)
		}
	}
	for _, v := range []string{"0", "-12", "3.25", "1e9", "6.02E+23", "4242424242424242"} {
		if !isJSONNumberLiteral(v) {
			t.Errorf("isJSONNumberLiteral(%q) = false", v)
		}
	}
	for _, v := range []string{"", "-", "1.", ".5", "1e", "12a", "4242 4242"} {
		if isJSONNumberLiteral(v) {
			t.Errorf("isJSONNumberLiteral(%q) = true", v)
		}
	}
}
