package sanitize

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// proseSanitizers are sanitizers whose own words a text can hold: a
// letters-only host name and a letters-only configured secret.
func proseSanitizers() []*Sanitizer {
	return []*Sanitizer{
		New(),
		New(WithHostname("ledger"), WithSecrets("swordfish")),
		New(WithHostname("billing.prod.example"), WithMaxOutput(16)),
		New(WithMaxInput(8)),
		New(WithHostname("pg-primary"), WithSecrets("api_key_9")),
		New(WithPersonalData(true)),
	}
}

// proseWords are the words a text built by proseFrom draws on: words that
// some rule reacts to in some context, and plain ones.
var proseWords = strings.Fields(`localhost LocalHost ledger LEDGER swordfish billing prod example
	password passwd secret token bearer Bearer Basic key apikey auth authorization at in on File line
	Traceback Caused by goroutine panic Exception Error error identified IDENTIFIED BY user BEGIN PRIVATE
	KEY RSA sk pk rk xoxb xoxp ghp gho AKIA ASIA AKIAIOSFODNN metadata internal svc local cluster lan
	home arpa corp consul html body script div br p main null undefined true false Rate exceeded The
	request is invalid card declined insufficient funds Retry later Too many requests aaaaaaaaaaaaaaa
	ABCDEFGHIJKLMN abcdefghijklmn eyJ Zm9v 100 2026 8080 443 hunter2 v2 0x1f 1234567890123 4111111111111111
	4242 cvc CVV ssn SSN 078 05 1120 123 iban DE89 3704 0044 0532 0130 00
	/limit /items/2/sku /etc/passwd /app/main /home/user /var/run/secrets /tmp /usr/local/bin /proc/self/environ
	/localhost /ledger/x / // goroutine 1 running at line 42 in main File x
	api_key access_token client_secret x-api-key secret_key auth_token sk_test sk_live pk_live rk_live
	xoxb-1 ghp_x AKIA_x search_orders rate-limited BEGIN- -----BEGIN --password -p -u user_name db-primary
	redis-0 pg-primary payments-api ledger-db`)

// proseFrom builds a prose-shaped text from data: each byte picks a word
// or a separator, so most fuzz inputs are texts the plain-prose path may
// take.
func proseFrom(data []byte) string {
	var b strings.Builder
	for i, c := range data {
		if i > 0 {
			switch c % 7 {
			case 0:
				b.WriteString(", ")
			case 1:
				b.WriteString(". ")
			case 2:
				b.WriteString("; ")
			default:
				b.WriteByte(' ')
			}
		}
		b.WriteString(proseWords[int(c)%len(proseWords)])
	}
	return b.String()
}

// FuzzPlainProse: every text the plain-prose path takes, the whole
// pipeline returns unchanged with nothing reported, for texts shaped as
// prose from the fuzzer's bytes and for the bytes themselves.
func FuzzPlainProse(f *testing.F) {
	f.Add([]byte("Rate exceeded"))
	f.Add([]byte{0, 1, 2, 3, 4, 5, 6})
	f.Add([]byte{7, 14, 21, 28, 35, 42, 49, 56, 63, 70, 77, 84, 91, 98, 105})
	sanitizers := proseSanitizers()
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, text := range []string{proseFrom(data), string(data)} {
			for _, s := range sanitizers {
				if !s.plainProse(text) {
					continue
				}
				got, rep := s.clean(text)
				if got != text || rep.Changed() {
					t.Fatalf("the plain-prose path keeps %q, the pipeline makes %q (%v)", text, got, rep)
				}
			}
		}
	})
}

// TestPlainProse: vendor messages take the path; what any rule could act
// on does not.
func TestPlainProse(t *testing.T) {
	s := New(WithHostname("ledger"), WithSecrets("swordfish"))
	for _, text := range []string{
		"Rate exceeded",
		"The security token included in the request is invalid.",
		"Your card was declined.",
		"Requested entity was not found.",
		"Too many requests, please slow down.",
		"limit must be at most 100",
		"/limit",
		"/items/2/sku",
		"retry in 30 seconds",
		"limit must be between 1 and 100; got 500.",
	} {
		assert.True(t, s.plainProse(text), text)
		got, rep := s.Clean(text)
		assert.Equal(t, text, got)
		assert.False(t, rep.Changed())
	}
	for _, text := range []string{
		"",
		"Connection to localhost refused",
		"Ledger is down",
		"the password is swordfish",
		"db.internal is down",          // a dotted name
		"Rate  exceeded",               // a doubled space
		" Rate exceeded",               // a leading space
		"Rate exceeded ",               // a trailing space
		"token abcdefghijklmnopqrstuv", // a word as long as a token
		"see http://x",                 // a URL
		"//cdn",                        // an authority
		"password: hunter",             // a colon
		"a;b is set",                   // a semicolon inside a word
		"; set",                        // a semicolon ending no word
		"at main (app.js)",             // brackets
		"Caf\u00e9 closed",             // not ASCII
		strings.Repeat("word ", 200),   // too long
		"card 4242 4242 4242 4242",     // a card number in groups
		"CVC 123 is wrong",             // a security code
		"SSN 078 05 1120 is on file",   // a social security number
	} {
		assert.False(t, s.plainProse(text), "%q", text)
	}
	short := New(WithMaxOutput(16))
	assert.False(t, short.plainProse("Rate exceeded for this key"), "longer than the output cap: cut")
	capped := New(WithMaxInput(8))
	assert.False(t, capped.plainProse("Rate exceeded"), "longer than the input cap: cut")
	got, _ := capped.Clean("Rate exceeded")
	assert.NotEqual(t, "Rate exceeded", got)
}
