package sanitize

import "testing"

// TestPersonalDataForms: the forms the independent corpus found missing
// (a URL-encoded address, an internationalized domain, a national number
// under its label) are masked, and what only looks like an address (a
// repository's SSH remote, an image's name) stays.
func TestPersonalDataForms(t *testing.T) {
	s := New(WithHostname(""), WithPersonalData(true))
	for in, want := range map[string]string{
		"GET /users?email=jane%40example.com 404":             "GET /users?email=[email-1] 404",
		"kontakt@bücher.de nicht erreichbar":                  "[email-1] nicht erreichbar",
		"info@例え.jp です":                                       "[email-1] です",
		"请联系ann@example.com获取":                                "请联系[email-1]获取",
		"bounce: jane@example.com: mailbox full":              "bounce: [email-1]: mailbox full",
		"Tel: 020 7946 0958":                                  "Tel: [phone-1]",
		"phone_number=0612345678&locale=fr":                   "phone_number=[phone-1]&locale=fr",
		"Mobile 415 555 0100, office +1 415 555 0100":         "Mobile [phone-1], office [phone-2]",
		"git clone git@github.com:toolerr/toolerr.git failed": "git clone git@github.com:toolerr/toolerr.git failed",
		"missing asset logo@2x.png":                           "missing asset logo@2x.png",
		"order 0612345678 shipped":                            "order 0612345678 shipped",
	} {
		if got, _ := s.Clean(in); got != want {
			t.Errorf("Clean(%q) = %q; want %q", in, got, want)
		}
	}
}
