package sanitize

import (
	"bytes"
	"strings"

	"github.com/toolerr/toolerr/internal/asciifold"
)

// The names of secret-bearing keys in query strings, form bodies, JSON,
// YAML, DSNs and HTTP headers, and the checks their values must pass.

// keyClass says how the value of a key is read.
type keyClass int

const (
	keyNone   keyClass = iota
	keyValue           // one value: password=..., "token": "..."
	keyAuth            // Authorization: <scheme> <credentials>
	keyCookie          // Cookie: a=b; c=d (the rest of the line)
	keyWeak            // a key that often names a credential: the value must look random
)

// keyRule matches a normalized key: lower case, without '_', '-' and '.'.
type keyRule struct {
	name   string
	suffix bool // also matches keys that end with name (client_secret)
	class  keyClass
	repl   string
}

// keyRules are tried in order; the first match wins, so a longer suffix
// comes before a shorter one it ends with.
var keyRules = func() []keyRule {
	r := func(name string, suffix bool, class keyClass, family string) keyRule {
		return keyRule{name: name, suffix: suffix, class: class, repl: redacted(family)}
	}
	return []keyRule{
		r("authorization", true, keyAuth, "authorization"), // also Proxy-Authorization
		r("cookie", true, keyCookie, "cookie"),             // also Set-Cookie
		r("secretaccesskey", true, keyValue, "aws-secret-key"),
		r("accountkey", true, keyValue, "azure-storage-key"),
		r("sharedaccesssignature", true, keyValue, "azure-sas"),
		r("sig", false, keyValue, "azure-sas"),
		r("password", true, keyValue, "password"),
		r("passwd", true, keyValue, "password"),
		r("passphrase", true, keyValue, "password"),
		r("pwd", true, keyValue, "password"),
		r("pass", false, keyValue, "password"),
		r("privatekey", true, keyValue, "private-key"),
		r("apikey", true, keyValue, "api-key"),
		r("accesskey", true, keyValue, "api-key"),
		r("secretkey", true, keyValue, "secret"),
		r("signingkey", true, keyValue, "secret"),
		r("encryptionkey", true, keyValue, "secret"),
		r("masterkey", true, keyValue, "secret"),
		r("secret", true, keyValue, "secret"),
		r("token", true, keyValue, "token"),
		r("basicauth", true, keyValue, "credential"),
		r("userauth", true, keyValue, "credential"),
		r("httpauth", true, keyValue, "credential"),
		r("proxyauth", true, keyValue, "credential"),
		r("auth", false, keyValue, "token"),
		r("sessionid", true, keyValue, "session"),
		r("sessid", true, keyValue, "session"),
		r("session", true, keyValue, "session"),
		r("credentials", true, keyValue, "credential"),
		r("credential", true, keyValue, "credential"),
		r("signature", true, keyValue, "signature"),
	}
}()

// twilioTokenRepl replaces a token whose key names Twilio.
var twilioTokenRepl = redacted("twilio-auth-token")

// maxKeyLen is how much of a key is read back from its separator.
const maxKeyLen = 96

// publicKeys are key endings that name public values although they end
// like a secret's key: a public or publishable key or token, and the
// Maven group io.jsonwebtoken.
var publicKeys = []string{"publickey", "publictoken", "publishablekey", "pubkey", "jsonwebtoken"}

// classifyKey returns the class and placeholder of the normalized key
// norm. whole says whether norm is the whole key, not only its tail; a rule
// without suffix matching needs the whole key.
func classifyKey(norm []byte, whole bool) (keyClass, string) {
	class, repl := matchKeyRule(norm, whole)
	if class != keyNone {
		for _, p := range publicKeys {
			if bytes.HasSuffix(norm, []byte(p)) {
				return keyNone, ""
			}
		}
	}
	return class, repl
}

// keyRulesByEnd lists, for each byte, the indexes in keyRules of the rules
// whose names end with it, in keyRules' order: a key is compared only with
// the few rules that can match it, and a key that ends otherwise, as most
// words of prose do, with none.
var keyRulesByEnd = func() (t [256][]uint8) {
	for i, r := range keyRules {
		c := r.name[len(r.name)-1]
		t[c] = append(t[c], uint8(i))
	}
	return t
}()

// matchKeyRule returns the class and placeholder of the first rule that
// names norm.
func matchKeyRule(norm []byte, whole bool) (keyClass, string) {
	if len(norm) == 0 {
		return keyNone, ""
	}
	for _, ri := range keyRulesByEnd[norm[len(norm)-1]] {
		r := &keyRules[ri]
		n := len(r.name)
		if len(norm) < n || string(norm[len(norm)-n:]) != r.name {
			continue
		}
		if !r.suffix && (len(norm) != n || !whole) {
			continue
		}
		if r.name == "token" && bytes.Contains(norm, []byte("twilio")) {
			return r.class, twilioTokenRepl
		}
		return r.class, r.repl
	}
	return keyNone, ""
}

// authSchemes are the HTTP authentication schemes whose next word is the
// credential, in lower case.
var authSchemes = []string{
	"bearer", "basic", "token", "digest", "aws4-hmac-sha256", "negotiate", "ntlm",
	"apikey", "api-key", "key", "hoba", "mutual", "sharedkey", "dpop", "oauth",
	"gsskey", "scram-sha-1", "scram-sha-256", "vapid", "hmac", "sso-key", "sharedaccesssignature",
}

// isAuthScheme reports whether w names an HTTP authentication scheme.
// A scheme cut by the output cap ("AWS4-HMAC-…") still counts, so that
// cleaning the cut output again leaves it alone.
func isAuthScheme(w string) bool {
	cut := strings.HasSuffix(w, truncationMark)
	w = strings.TrimSuffix(w, truncationMark)
	if len(w) > 24 || w == "" {
		return false
	}
	for _, sc := range authSchemes {
		if (len(w) == len(sc) || cut && len(w) < len(sc)) && asciifold.HasPrefix(sc, strings.ToLower(w)) {
			return true
		}
	}
	return false
}

// looksSecret reports whether a value read from a weak context (key: value,
// key = value) looks like a credential rather than a word of prose:
// letters with digits, several capitals, a symbol, great length, or a
// long number (the numeric tokens of some providers). Every
// test only grows with the value, so a cut value never passes where the
// whole one failed; stand-ins ($API_KEY, xxxxxx) never pass.
func looksSecret(v string) bool {
	v = strings.TrimSuffix(v, truncationMark) // a cut value: judge its start
	if len(v) < 6 || isPlaceholder(v) || isStandIn(v) {
		return false
	}
	var up, lo, dig, sym int
	for k := 0; k < len(v); k++ {
		c := v[k]
		switch {
		case c >= 'A' && c <= 'Z':
			up++
		case c >= 'a' && c <= 'z':
			lo++
		case isDigitByte(c):
			dig++
		case strings.IndexByte("/+=@#$%^&*~|", c) >= 0:
			sym++
		}
	}
	return dig > 0 && up+lo > 0 || up >= 2 && lo >= 1 || sym > 0 || len(v) >= 24 || dig >= 16
}

// nullishWords are the values that stand for no value.
var nullishWords = []string{"null", "nil", "none", "true", "false", "undefined", "empty"}

// isNullish reports whether an assigned value is a stand-in, not a secret.
func isNullish(v string) bool {
	for _, w := range nullishWords {
		if strings.EqualFold(v, w) {
			return true
		}
	}
	return strings.Trim(v, "*") == "" || isPlaceholder(v)
}

// isProseWord reports whether w is a plain lower-case word, possibly with
// trailing punctuation: no credential looks like that.
func isProseWord(w string) bool {
	w = strings.TrimRight(w, ".,;:!?")
	if len(w) == 0 || len(w) > 12 {
		return false
	}
	for k := 0; k < len(w); k++ {
		if w[k] < 'a' || w[k] > 'z' {
			return false
		}
	}
	return true
}

// isProse reports whether a quoted value reads as a sentence, such as the
// message of a validation error ("must be at least 12 characters"): three
// or more words, two thirds of them plain lower-case words, none of them
// looking like a credential.
func isProse(v string) bool {
	words, plain := 0, 0
	for i := skipSpaces(v, 0); i < len(v); i = skipSpaces(v, i) {
		e := nonSpaceEnd(v, i)
		words++
		if isProseWord(v[i:e]) {
			plain++
		} else if looksSecret(v[i:e]) {
			return false
		}
		i = e
	}
	return words >= 3 && plain*3 >= words*2
}
