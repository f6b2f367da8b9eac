package sanitize

import (
	"bytes"
	"math/bits"
	"strings"

	"github.com/toolerr/toolerr/internal/asciifold"
)

// Weak keys: names that often, not always, carry a credential. An app id
// is the API key of some services (appid=<32 hex digits>) and a word of
// others (appid=weather); a key named after a provider (cloudflare:
// "...", FINNHUB=...) holds its token in sample configurations and its
// region or account name elsewhere. Their values are redacted only when
// they look random (looksRandom).

// weakKey is a weak key name and its placeholder.
type weakKey struct {
	name string
	repl string
}

// weakKeys are matched against the whole normalized key.
var weakKeys = func() []weakKey {
	k := func(name, family string) weakKey { return weakKey{name: name, repl: redacted(family)} }
	return []weakKey{
		k("appid", "api-key"), k("applicationkey", "api-key"), k("appkey", "api-key"),
		k("key", "api-key"), k("accesskeyid", "aws-access-key-id"),
		k("consumerkey", "api-key"), k("clientkey", "api-key"), k("licensekey", "license-key"),
		k("license", "license-key"), k("sid", "session"), k("login", "credential"),
		k("dsn", "credential"), k("pat", "token"), k("hmac", "secret"), k("salt", "secret"),
	}
}()

// providerNames are providers whose tokens have no format of their own
// and are found by a key that names the provider. A key that contains one
// is weak, unless it ends with a benign tail.
var providerNames = []string{
	"adafruit", "adobe", "adyen", "airtable", "algolia", "alibaba", "amplitude", "anthropic",
	"artifactory", "asana", "atlassian", "auth0", "beamer", "bitbucket", "bittrex", "braintree",
	"cloudflare", "codecov", "cohere", "coinbase", "confluence", "confluent", "contentful",
	"contribsys", "datadog", "discord", "droneci", "dropbox", "etsy", "facebook", "fastly",
	"finicity", "finnhub", "firebase", "flickr", "freshbooks", "github", "gitlab", "gitter",
	"gocardless", "groq", "heroku", "hubspot", "intercom", "jfrog", "jira", "klarna", "kraken",
	"kucoin", "launchdarkly", "linear", "linkedin", "looker", "mailchimp", "mailgun", "mandrill",
	"mapbox", "mattermost", "maxmind", "meraki", "messagebird", "mistral", "mixpanel", "netlify",
	"newrelic", "nexmo", "nytimes", "okta", "openai", "pagerduty", "paypal", "plaid", "plivo",
	"postmark", "privateai", "pusher", "rapidapi", "razorpay", "segment", "sendbird", "sendgrid",
	"sentry", "shopify", "slack", "snyk", "sonar", "sourcegraph", "sparkpost", "square",
	"squarespace", "stripe", "sumo", "sumologic", "supabase", "telegram", "travis", "trello",
	"twilio", "twitch", "twitter", "typeform", "vercel", "vonage", "yandex", "zendesk",
}

// benignTails end weak keys whose values are identifiers, addresses or
// settings, not credentials: request and order ids, URLs, names, regions.
var benignTails = []string{
	"id", "ids", "url", "uri", "endpoint", "host", "domain", "name", "version", "region", "user",
	"username", "email", "org", "path", "file", "dir", "type", "mode", "size", "length", "count",
	"sha", "commit", "digest", "checksum", "etag", "enabled", "timeout", "zone", "project", "team",
	"channel", "workspace", "env", "environment",
}

// weakSecret reports whether v, the value of a key that no strong rule
// names, is a secret, and the key's class: v must look random and the key
// be a weak key name or name a provider.
func weakSecret(key keyClassOf, v string) (keyClassOf, bool) {
	if !looksRandom(v, true) {
		return key, false
	}
	w := classifyWeakKey(key.raw, key.whole)
	return w, w.class == keyWeak && looksRandom(v, w.provider)
}

// classifyWeakKey returns the class of the key raw, as written, that no
// strong rule names: a weak key name, a key naming a provider as one of
// its words ("HEROKU_KEY", "cloudflareToken", not "SetSysctl"), or none.
func classifyWeakKey(raw string, whole bool) keyClassOf {
	var buf [maxKeyLen]byte
	norm := buf[:0]
	for k := 0; k < len(raw) && len(norm) < maxKeyLen; k++ {
		if isAlnumByte(raw[k]) {
			norm = append(norm, asciifold.Lower(raw[k]))
		}
	}
	if whole {
		for _, w := range weakKeys {
			if string(norm) == w.name {
				return keyClassOf{class: keyWeak, repl: w.repl}
			}
		}
	}
	for _, t := range benignTails {
		if bytes.HasSuffix(norm, []byte(t)) {
			return keyClassOf{}
		}
	}
	for _, p := range providerNames {
		if hasWord(raw, p) {
			return keyClassOf{class: keyWeak, repl: redacted(p + "-key"), provider: true}
		}
	}
	return keyClassOf{}
}

// hasWord reports whether the lower-case word w is one of the words of
// key, ignoring case: where it starts and ends, key has a separator, its
// start or end, a change between letters and digits, or a lower-case
// letter followed by an upper-case one.
func hasWord(key, w string) bool {
	for i := 0; i+len(w) <= len(key); i++ {
		if asciifold.HasPrefix(key[i:], w) && wordBreak(key, i) && wordBreak(key, i+len(w)) {
			return true
		}
	}
	return false
}

// wordBreak reports whether a word of key may start or end at key[i].
func wordBreak(key string, i int) bool {
	if i == 0 || i == len(key) || !isAlnumByte(key[i-1]) || !isAlnumByte(key[i]) {
		return true
	}
	a, b := key[i-1], key[i]
	return isDigitByte(a) != isDigitByte(b) || a >= 'a' && a <= 'z' && b >= 'A' && b <= 'Z'
}

// maxRandomLen bounds the values looksRandom accepts; longer credentials
// have formats or strong keys of their own.
const maxRandomLen = 256

// looksRandom reports whether v looks like a machine-made credential: 16
// or more bytes of letters, digits and the symbols of encodings
// ("-_.+/=~:"), two or more letters and two or more digits, at least
// eight distinct letters and digits, and not a stand-in. Values that are
// identifiers by their shape
// stay: UUIDs and 40- or 64-digit hex hashes (unless the key names a
// provider, whose keys take those shapes), URLs, and words joined by
// separators ("billing-service-2024"). A value cut by the output cap is
// never random, so cleaning the cut text again changes nothing.
func looksRandom(v string, provider bool) bool {
	if len(v) < 16 || len(v) > maxRandomLen || strings.Contains(v, "://") || isStandIn(v) {
		return false
	}
	var seen uint64 // bit k: the k-th of the 62 letters and digits
	letters, digits := 0, 0
	for k := 0; k < len(v); k++ {
		c := v[k]
		switch {
		case isDigitByte(c):
			digits++
			seen |= 1 << (c - '0')
		case c >= 'a' && c <= 'z':
			letters++
			seen |= 1 << (c - 'a' + 10)
		case c >= 'A' && c <= 'Z':
			letters++
			seen |= 1 << (c - 'A' + 36)
		case strings.IndexByte("-_.+/=~:", c) < 0:
			return false
		}
	}
	if letters < 2 || digits < 2 || bits.OnesCount64(seen) < 8 || isDummyBody(v[:min(len(v), bodyWindow)]) || joinedWords(v) {
		return false
	}
	if !provider && (isUUID(v) || (len(v) == 40 || len(v) == 64) && isHexString(v)) {
		return false
	}
	return true
}

// joinedWords reports whether v is words joined by '-', '_' or '.': two
// or more parts, each lower-case letters with digits only at its end
// ("v8", "utf16") or all digits.
func joinedWords(v string) bool {
	parts, n, word := 0, 0, true
	inDigits := false
	for k := 0; k <= len(v); k++ {
		if k == len(v) || v[k] == '-' || v[k] == '_' || v[k] == '.' {
			if n > 0 {
				if !word {
					return false
				}
				parts++
			}
			n, word, inDigits = 0, true, false
			continue
		}
		switch c := v[k]; {
		case isDigitByte(c):
			inDigits = true
		case c >= 'a' && c <= 'z' && !inDigits:
		default:
			word = false
		}
		n++
	}
	return parts >= 2
}

// isUUID reports whether v is a UUID in its 8-4-4-4-12 hex form.
func isUUID(v string) bool {
	if len(v) != 36 {
		return false
	}
	for k := 0; k < len(v); k++ {
		if k == 8 || k == 13 || k == 18 || k == 23 {
			if v[k] != '-' {
				return false
			}
		} else if !isHexByte(v[k]) {
			return false
		}
	}
	return true
}

// isHexString reports whether v is all hexadecimal digits.
func isHexString(v string) bool {
	for k := 0; k < len(v); k++ {
		if !isHexByte(v[k]) {
			return false
		}
	}
	return v != ""
}
