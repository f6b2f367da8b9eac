package translate

import "bytes"

// The lexical pieces of the direct reader of AWS XML (aws_xml_scan.go):
// text, references, the declaration, start tags, names and white space,
// each accepting only the reader's plain subset of XML.

// chars reads text up to the next '<', appending it decoded to *text when
// text is not nil.
func (s *awsXMLScanner) chars(text *[]byte) bool {
	b := s.b
	start := s.i
	for s.i < len(b) {
		c := b[s.i]
		switch {
		case c == '<':
			if text != nil {
				*text = append(*text, b[start:s.i]...)
			}
			return true
		case c == '&':
			if text != nil {
				*text = append(*text, b[start:s.i]...)
			}
			r, n := awsXMLEntity(b[s.i:])
			if n == 0 {
				return false
			}
			if text != nil {
				*text = append(*text, r)
			}
			s.i += n
			start = s.i
		case c >= 0x20 && c < 0x7f || c == '\t' || c == '\n':
			s.i++
		default:
			return false // a carriage return, a control or a non-ASCII byte
		}
	}
	return false
}

// awsXMLEntity decodes the predefined entity at the start of b; n is 0
// for any other reference.
func awsXMLEntity(b []byte) (r byte, n int) {
	for _, e := range [...]struct {
		ref string
		r   byte
	}{{"&amp;", '&'}, {"&lt;", '<'}, {"&gt;", '>'}, {"&apos;", '\''}, {"&quot;", '"'}} {
		if bytes.HasPrefix(b, []byte(e.ref)) {
			return e.r, len(e.ref)
		}
	}
	return 0, 0
}

// prolog reads up to the root element: white space, and a declaration
// first.
func (s *awsXMLScanner) prolog() bool {
	if bytes.HasPrefix(s.b, []byte("<?xml")) && !s.declaration() {
		return false
	}
	s.space()
	return s.i+1 < len(s.b) && s.b[s.i] == '<' && awsXMLNameStart(s.b[s.i+1])
}

// declaration reads an <?xml?> declaration at the start: pseudo-attributes
// version="1.0", encoding="UTF-8" (any case) and standalone, quoted either
// way and separated by white space.
func (s *awsXMLScanner) declaration() bool {
	s.i = len("<?xml")
	for {
		spaced := s.space()
		if bytes.HasPrefix(s.b[s.i:], []byte("?>")) {
			s.i += 2
			return true
		}
		if !spaced {
			return false
		}
		name, ok := s.name(false)
		if !ok || s.i+1 >= len(s.b) || s.b[s.i] != '=' {
			return false
		}
		s.i++
		value, ok := s.quoted()
		if !ok {
			return false
		}
		switch string(name) {
		case "version":
			ok = string(value) == "1.0"
		case "encoding":
			ok = bytes.EqualFold(value, []byte("utf-8"))
		case "standalone":
			ok = string(value) == "yes" || string(value) == "no"
		default:
			ok = false
		}
		if !ok {
			return false
		}
	}
}

// startTag reads a start tag at s.i: the element's name, and whether it
// closed itself (<x/>). Attributes are read and dropped but for xmlns,
// the default namespace, kept in s.xmlns.
func (s *awsXMLScanner) startTag() (name []byte, empty, ok bool) {
	b := s.b
	s.i++ // '<'
	s.xmlns = nil
	if name, ok = s.name(false); !ok {
		return nil, false, false
	}
	for {
		spaced := s.space()
		if s.i >= len(b) {
			return nil, false, false
		}
		switch b[s.i] {
		case '>':
			s.i++
			return name, false, true
		case '/':
			if s.i+1 < len(b) && b[s.i+1] == '>' {
				s.i += 2
				return name, true, true
			}
			return nil, false, false
		}
		if !spaced {
			return nil, false, false
		}
		attr, ok := s.name(true)
		if !ok {
			return nil, false, false
		}
		s.space()
		if s.i >= len(b) || b[s.i] != '=' {
			return nil, false, false
		}
		s.i++
		s.space()
		value, ok := s.quoted()
		if !ok {
			return nil, false, false
		}
		if string(attr) == "xmlns" {
			s.xmlns = value[:len(value):len(value)]
		}
	}
}

// quoted reads a quoted value free of '&' and '<'.
func (s *awsXMLScanner) quoted() ([]byte, bool) {
	b := s.b
	if s.i >= len(b) || b[s.i] != '"' && b[s.i] != '\'' {
		return nil, false
	}
	q := b[s.i]
	end := bytes.IndexByte(b[s.i+1:], q)
	if end < 0 {
		return nil, false
	}
	v := b[s.i+1 : s.i+1+end]
	for _, c := range v {
		if c == '&' || c == '<' || c < 0x20 || c >= 0x7f {
			return nil, false
		}
	}
	s.i += end + 2
	return v, true
}

// name reads a name at s.i: a letter or '_', then letters, digits, '_',
// '-' and '.'. With prefixed, one ':' may join two such parts (an
// attribute's xmlns:p); an element's name has none.
func (s *awsXMLScanner) name(prefixed bool) ([]byte, bool) {
	b := s.b
	start := s.i
	colon := false
	for s.i < len(b) {
		c := b[s.i]
		switch {
		case awsXMLNameStart(c):
		case c >= '0' && c <= '9' || c == '-' || c == '.':
			if s.i == start || colon && b[s.i-1] == ':' {
				return nil, false
			}
		case c == ':':
			if !prefixed || colon || s.i == start {
				return nil, false
			}
			colon = true
		case c >= 0x80:
			return nil, false
		default:
			if s.i == start || b[s.i-1] == ':' {
				return nil, false
			}
			return b[start:s.i], true
		}
		s.i++
	}
	return nil, false
}

// awsXMLNameStart reports whether c may start a name: an ASCII letter or '_'.
func awsXMLNameStart(c byte) bool { return isLetter(c) || c == '_' }

// space skips XML white space at s.i and reports whether there was any.
func (s *awsXMLScanner) space() bool {
	start := s.i
	for s.i < len(s.b) {
		switch s.b[s.i] {
		case ' ', '\t', '\n', '\r':
			s.i++
			continue
		}
		break
	}
	return s.i > start
}
