package translate

import (
	"encoding/json"
	"strings"
)

// cloudTranslators returns the cloud and communications group: AWS (JSON,
// Query/XML, EC2, S3 and API Gateway errors), Twilio and SendGrid.
func cloudTranslators() []Translator {
	return []Translator{awsTranslator{}, twilioTranslator{}, sendgridTranslator{}}
}

// cloudMaxText bounds every string the group's translators take from a
// body (codes, messages, fields, links): longer values are cut.
const cloudMaxText = 1024

// cloudObject decodes b as a JSON object whose members stay raw, so a
// member of an unexpected type spoils only itself. ok is false when b is
// not a JSON object.
func cloudObject(b []byte) (map[string]json.RawMessage, bool) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(b, &m); err != nil || m == nil {
		return nil, false
	}
	return m, true
}

// cloudString returns the first of keys whose member in m is a JSON string,
// trimmed and bounded; "" when none is.
func cloudString(m map[string]json.RawMessage, keys ...string) string {
	for _, k := range keys {
		raw, ok := m[k]
		if !ok {
			continue
		}
		var s string
		if json.Unmarshal(raw, &s) == nil {
			if s = cloudClip(s); s != "" {
				return s
			}
		}
	}
	return ""
}

// cloudClip trims s and bounds it to cloudMaxText bytes without splitting a
// UTF-8 sequence.
func cloudClip(s string) string {
	s = strings.TrimSpace(s)
	if len(s) <= cloudMaxText {
		return s
	}
	cut := cloudMaxText
	for cut > 0 && s[cut]&0xc0 == 0x80 {
		cut--
	}
	return s[:cut]
}

// cloudDocURL returns s when it is an absolute http(s) link without spaces,
// else "".
func cloudDocURL(s string) string {
	s = strings.TrimSpace(s)
	if !strings.HasPrefix(s, "https://") && !strings.HasPrefix(s, "http://") {
		return ""
	}
	if strings.ContainsAny(s, " \t\r\n\"<>") || len(s) > cloudMaxText {
		return ""
	}
	return s
}

// cloudHostIn reports whether host equals one of suffixes (leading dot
// ignored) or ends with it after a dot.
func cloudHostIn(host string, suffixes []string) bool {
	if host == "" {
		return false
	}
	for _, s := range suffixes {
		s = strings.TrimPrefix(s, ".")
		if host == s || strings.HasSuffix(host, "."+s) {
			return true
		}
	}
	return false
}
