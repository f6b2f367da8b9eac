package sanitize

import (
	"strings"

	"github.com/toolerr/toolerr/internal/asciifold"
)

// Reading the key of a key/value pair back from its separator, through the
// forms code writes assignments in: an assignment operator (:=, ::=, ?=,
// .=, +=, ||=), a type between the name and the '=' (var apiToken string =
// "...", val token: String = "...", const KEY: &str = "..."), and XML
// attributes whose name is in a sibling attribute (key="Password"
// value="...").

// operatorStart returns the index of the assignment operator that ends
// with the '=' at s[i]: the first of up to three operator bytes before it.
func operatorStart(s string, i int) int {
	j := i
	for j > 0 && i-j < 3 && strings.IndexByte(":?.+|", s[j-1]) >= 0 {
		j--
	}
	return j
}

// keyName is a key read back from its separator: its normalized form
// (lower case, without '_', '-' and '.') in the tail of buf, where it
// starts in the text, and whether it is the whole key or only its tail.
type keyName struct {
	buf        [maxKeyLen]byte
	n          int
	start, end int // the key as written is s[start:end]
	whole      bool
}

// norm returns the normalized key.
func (k *keyName) norm() []byte { return k.buf[maxKeyLen-k.n:] }

// keyClassOf is the classification of a key: how its value is read, the
// placeholder, and whether a weak key names a provider. A key that no
// strong rule names is keyWeak with the key as written in raw, and is
// classified further (classifyWeakKey) only when its value looks random,
// so prose pays for the strong rules only.
type keyClassOf struct {
	class    keyClass
	repl     string
	provider bool
	raw      string
	whole    bool
}

// classifyRaw classifies the key raw, normalized as norm: a strong rule's
// class, or keyWeak to be decided by its value.
func classifyRaw(raw string, norm []byte, whole bool) keyClassOf {
	if class, repl := classifyKey(norm, whole); class != keyNone {
		return keyClassOf{class: class, repl: repl}
	}
	return keyClassOf{class: keyWeak, raw: raw, whole: whole}
}

// matchClassValue records the secret in the value of key where the reading
// depends on the key's class alone, wherever the key stands (an assignment,
// a call's arguments, an XML element): an Authorization scheme and its
// credentials, a Cookie line, a weak key's random value. The value starts
// at s[vs], and is s[qs:qe] when quoted (for a weak key, the caller bounds
// an unquoted one in qs and qe). It reports false for a keyValue key, whose
// value each caller reads by its own evidence, and for keyNone.
func matchClassValue(s string, vs, qs, qe int, quoted bool, key keyClassOf, out *spanList) bool {
	switch key.class {
	case keyAuth:
		matchAuthValue(s, vs, qs, qe, quoted, key.repl, out)
	case keyCookie:
		matchCookieValue(s, vs, qs, qe, quoted, key.repl, out)
	case keyWeak:
		if w, ok := weakSecret(key, s[qs:qe]); ok {
			out.add(qs, qe, w.repl, KindSecret)
		}
	default:
		return false
	}
	return true
}

// readKey reads the key that ends before the separator at s[i] and
// classifies it. A type name is skipped for the name before it, and the
// key "value" of an XML element takes the name of its key="..." or
// name="..." attribute.
func readKey(s string, i int) keyClassOf {
	k := readKeyName(s, i)
	if k.n == 0 {
		return keyClassOf{}
	}
	if isTypeName(k.norm()) {
		j := skipSpacesBack(s, k.start)
		for j > 0 && (s[j-1] == '&' || s[j-1] == '*') {
			j--
		}
		j = skipSpacesBack(s, j)
		if j > 0 && s[j-1] == ':' {
			j = skipSpacesBack(s, j-1)
		}
		if j < k.start && j > 0 && isKeyByte(s[j-1]) {
			k = readKeyName(s, j)
		}
	}
	norm := k.norm()
	if string(norm) == "value" && k.whole {
		if a, ok := attributeKey(s, k.start); ok {
			k = a
			norm = k.norm()
		}
	}
	return classifyRaw(s[k.start:k.end], norm, k.whole)
}

// readKeyName reads the key that ends before s[i], skipping white space
// and a closing quote (also an escaped one, \").
func readKeyName(s string, i int) keyName {
	var k keyName
	j := skipSpacesBack(s, i)
	if j > 0 && (s[j-1] == '"' || s[j-1] == '\'') {
		j--
		if j > 0 && s[j-1] == '\\' {
			j--
		}
	}
	n := maxKeyLen
	p := j
	k.end = j
scan:
	for ; p > 0 && n > 0; p-- {
		switch c := s[p-1]; {
		case c == '_' || c == '-' || c == '.':
		case isAlnumByte(c):
			n--
			k.buf[n] = asciifold.Lower(c)
		default:
			break scan
		}
	}
	k.n = maxKeyLen - n
	k.start = p
	k.whole = p == 0 || !isKeyByte(s[p-1])
	return k
}

// isKeyByte reports whether c may appear in a key.
func isKeyByte(c byte) bool { return isAlnumByte(c) || c == '_' || c == '-' || c == '.' }

// typeNames are the type names that may stand between a variable's name
// and its '=' in Go, Kotlin, Rust, TypeScript, Swift and Scala.
var typeNames = []string{"string", "str", "char", "bytes", "byte", "text", "any", "object"}

// isTypeName reports whether the normalized key is a type name.
func isTypeName(norm []byte) bool {
	for _, t := range typeNames {
		if string(norm) == t {
			return true
		}
	}
	return false
}

// maxTagLen bounds how far back attributeKey looks for the start of the
// element.
const maxTagLen = 256

// attributeKey finds, in the XML element around the attribute "value"
// that starts at s[vstart], a sibling attribute key="..." or name="..."
// after white space, and returns the key name it gives.
func attributeKey(s string, vstart int) (keyName, bool) {
	from := max(0, vstart-maxTagLen)
	lt := strings.LastIndexByte(s[from:vstart], '<')
	if lt < 0 {
		return keyName{}, false
	}
	for _, attr := range []string{"key=", "name="} {
		for a := from + lt; a < vstart; a++ {
			at := strings.Index(s[a:vstart], attr)
			if at < 0 {
				break
			}
			a += at
			q := a + len(attr)
			if spaceRuneBefore(s, a) == 0 || q >= vstart || s[q] != '"' && s[q] != '\'' {
				continue
			}
			e := strings.IndexByte(s[q+1:vstart], s[q])
			if e <= 0 {
				continue
			}
			k := readKeyName(s, q+1+e+1)
			return k, k.n > 0
		}
	}
	return keyName{}, false
}
