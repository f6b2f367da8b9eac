package sanitize

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// leakCase is an input that holds secret, which must not survive Clean.
type leakCase struct{ name, in, secret string }

// checkNoLeak cleans each input (hostname fixed, so the result does not
// depend on the machine) and fails when the secret survives.
func checkNoLeak(t *testing.T, cases []leakCase) {
	t.Helper()
	s := New(WithHostname(""))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, _ := s.Clean(c.in)
			assert.NotContains(t, out, c.secret, "in: %q", c.in)
		})
	}
}

// TestAdversarialVendorContextsRedacted covers vendor formats the existing
// tests do not (Python repr, Go %+v, Java toString, Ruby inspect, .NET
// connection strings, AWS canonical requests, ASGI byte headers, headers
// in upper case), as regressions guards.
func TestAdversarialVendorContextsRedacted(t *testing.T) {
	checkNoLeak(t, []leakCase{
		{"python repr", `{'api_key': 'Zq8vL2xK9pT4wN7mB3cR', 'user': 'bob'}`, "Zq8vL2xK9pT4wN7mB3cR"},
		{"go %+v", `&{Token:Zq8vL2xK9pT4wN7mB3cR User:bob}`, "Zq8vL2xK9pT4wN7mB3cR"},
		{"java toString", `Config{password=hunter2, host=db}`, "hunter2"},
		{"ruby inspect", `#<Client:0x000055d @api_key="Zq8vL2xK9pT4wN7mB3cR">`, "Zq8vL2xK9pT4wN7mB3cR"},
		{"rails params", `Parameters: {"user"=>{"email"=>"a@b.com", "password"=>"hunter22"}}`, "hunter22"},
		{"sqlserver", `Server=tcp:x.database.windows.net,1433;Initial Catalog=db;User ID=admin;Password=Zq8vL2xK!9pT;Encrypt=True;`, "Zq8vL2xK!9pT"},
		{"aws canonical", `should have been 'GET\n/\nX-Amz-Credential=AKIAIOSFODNN7EXAMPLE%2F20130524&X-Amz-Signature=aeeed9bbccd4d02ee5c0109b86d86835f995330da4c265957d157751f604d404'`, "aeeed9bbccd4d02ee5c0109b86d86835"},
		{"asgi byte headers", `[(b'authorization', b'Bearer Zq8vL2xK9pT4wN7mB3cR'), (b'host', b'api.example.com')]`, "Zq8vL2xK9pT4wN7mB3cR"},
		{"upper-case cookie", "GET / HTTP/1.1\r\nCOOKIE: session=Zq8vL2xK9pT4wN7mB3cR\r\n", "Zq8vL2xK9pT4wN7mB3cR"},
		{"tab separator", "token:\tZq8vL2xK9pT4wN7mB3cR", "Zq8vL2xK9pT4wN7mB3cR"},
		{"zero-width inside token", "sk_live_4eC39Hq\u200bLyjWDarjtT1zdp7dc", "LyjWDarjtT1zdp7dc"},
		{"go mysql dsn", `open app:hunter2xyz@tcp(127.0.0.1:3306)/orders: connection refused`, "hunter2xyz"},
		{"telegram bot url", `Post "https://api.telegram.org/bot123456789:AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawq/sendMessage": i/o timeout`, "AAHdqTcvCH1vGWJxfSeofSAs0K5PALDsawq"},
		{"json escaped pem", `key: "-----BEGIN PRIVATE KEY-----\nMIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSj\n-----END PRIVATE KEY-----"`, "MIIEvQIBADANBgkqhkiG9w0BAQEFAASCBKcwggSj"},
	})
}
