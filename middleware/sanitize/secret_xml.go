package sanitize

import (
	"strings"

	"github.com/toolerr/toolerr/internal/asciifold"
)

// Secrets in XML elements named for them: <password>hunter2</password>,
// <apiToken>...</apiToken>, <ns:ClientSecret>...</ns:ClientSecret>, in
// SOAP faults, Maven settings and .NET configuration. The rule is anchored
// at the closing tag "</", which prose does not hold, and reads the
// element's name there. The element's text is its value, judged like a
// quoted value: under a strong key it is a secret unless empty, a
// stand-in or a sentence; under a weak key it must look random. An
// element that holds other elements is left alone.

// closeTag starts the closing tag of an element.
const closeTag = "</"

// maxElementText bounds how far back from its closing tag an element's
// opening tag is looked for.
const maxElementText = 4096

// matchXMLElement records the secret text of the element whose closing
// tag starts at s[i], if any.
func matchXMLElement(s string, i int, out *spanList) {
	if !strings.HasPrefix(s[i:], closeTag) {
		return
	}
	p := i + len(closeTag)
	q := p
	for q < len(s) && q-p < maxKeyLen && (isKeyByte(s[q]) || s[q] == ':') {
		q++
	}
	if q == p || q >= len(s) || s[q] != '>' {
		return
	}
	name := s[p:q]
	from := max(0, i-maxElementText)
	lt := strings.LastIndexByte(s[from:i], '<')
	if lt < 0 {
		return
	}
	open := from + lt + 1 // the opening tag's name
	rest := open + len(name)
	if !strings.HasPrefix(s[open:], name) || rest >= i || s[rest] != '>' && spaceRuneAt(s, rest) == 0 {
		return
	}
	gt := strings.IndexByte(s[rest:i], '>')
	if gt < 0 || gt > 0 && s[rest+gt-1] == '/' {
		return // no end of the opening tag, or an empty element <a/> before
	}
	vs := skipSpaces(s, rest+gt+1)
	ve := skipSpacesBack(s, i)
	if ve <= vs {
		return
	}
	key := classifyName(name)
	if matchClassValue(s, vs, vs, ve, true, key, out) || key.class != keyValue {
		return
	}
	if v := s[vs:ve]; !isStandIn(v) && !isProse(v) {
		out.add(vs, ve, key.repl, KindSecret)
	}
}

// classifyName classifies a whole key written out, such as an element's
// name, without its namespace prefix ("ns:Password").
func classifyName(name string) keyClassOf {
	if c := strings.LastIndexByte(name, ':'); c >= 0 {
		name = name[c+1:]
	}
	var k keyName
	n := maxKeyLen
	for j := len(name); j > 0 && n > 0; j-- {
		if c := name[j-1]; isAlnumByte(c) {
			n--
			k.buf[n] = asciifold.Lower(c)
		}
	}
	k.n = maxKeyLen - n
	if k.n == 0 {
		return keyClassOf{}
	}
	return classifyRaw(name, k.norm(), true)
}
