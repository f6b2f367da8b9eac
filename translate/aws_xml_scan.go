package translate

import "bytes"

// A direct reader of the small, plain XML documents AWS errors are, for
// awsDecodeXML: encoding/xml builds a token per tag and reflects on the
// struct for every member, several times the cost of reading a few hundred
// bytes. The reader accepts only a plain subset of XML, in which it gives
// exactly what encoding/xml's Decode into awsXMLDoc gives:
//
//   - an optional <?xml?> declaration first, of version 1.0, encoding
//     UTF-8 and standalone only;
//   - elements whose names have no prefix, attributes with quoted values
//     free of '&' and '<';
//   - text of printable ASCII, tabs and newlines, with the five predefined
//     entities (&amp; &lt; &gt; &apos; &quot;);
//   - at most awsScanDepth levels of elements.
//
// On anything else (a comment, CDATA, a DOCTYPE, a character reference,
// a carriage return, non-ASCII text, a prefixed name, malformed markup) it
// reports that it is not sure, and the caller decodes with encoding/xml,
// whose verdict (the document, or an error) stands. The fuzz target
// FuzzAWSXMLScan holds the two to the same result.

// awsScanDepth bounds the nesting the direct reader follows.
const awsScanDepth = 32

// awsXMLScanner reads one document; i is the read position in b.
type awsXMLScanner struct {
	b     []byte
	i     int
	depth int
	xmlns []byte // the last start tag's xmlns attribute, nil without one
}

// awsScanXML reads body as xml.Decode into an awsXMLDoc would. sure is
// false when body is outside the reader's subset (or malformed), and doc
// is then meaningless.
func awsScanXML(body []byte) (doc awsXMLDoc, sure bool) {
	if bytes.Contains(body, []byte("]]>")) {
		return awsXMLDoc{}, false // an error in text, allowed in attributes: leave it to encoding/xml
	}
	s := awsXMLScanner{b: body}
	if !s.prolog() {
		return awsXMLDoc{}, false
	}
	name, empty, ok := s.startTag()
	if !ok {
		return awsXMLDoc{}, false
	}
	doc.XMLName.Local = awsRootName(name)
	if s.xmlns != nil {
		doc.XMLName.Space = string(s.xmlns)
	}
	if empty {
		return doc, true
	}
	ok = s.content(name, func(child []byte, empty bool) bool {
		switch string(child) {
		case "Error":
			return s.errorElement(&doc.Error, child, empty)
		case "Errors":
			return s.content2(child, empty, func(grand []byte, empty bool) bool {
				if string(grand) != "Error" {
					return s.skip(grand, empty)
				}
				var e awsXMLError
				if !s.errorElement(&e, grand, empty) {
					return false
				}
				doc.Errors = append(doc.Errors, e)
				return true
			})
		case "RequestID":
			return s.text(&doc.RequestID, child, empty)
		}
		if f := doc.awsXMLError.field(child); f != nil {
			return s.text(f, child, empty)
		}
		return s.skip(child, empty)
	}, nil)
	if !ok {
		return awsXMLDoc{}, false
	}
	return doc, true
}

// awsRootName returns name as a string, the roots of AWS errors without
// allocating.
func awsRootName(name []byte) string {
	for _, root := range [...]string{"Error", "ErrorResponse", "Response"} {
		if string(name) == root {
			return root
		}
	}
	return string(name)
}

// field returns the member of e that the element name fills, or nil.
func (e *awsXMLError) field(name []byte) *string {
	switch string(name) {
	case "Type":
		return &e.Type
	case "Code":
		return &e.Code
	case "Message":
		return &e.Message
	case "Key":
		return &e.Key
	case "BucketName":
		return &e.BucketName
	case "ArgumentName":
		return &e.ArgumentName
	case "Region":
		return &e.Region
	case "Endpoint":
		return &e.Endpoint
	case "RequestId":
		return &e.RequestID
	case "HostId":
		return &e.HostID
	}
	return nil
}

// errorElement reads an <Error> element whose start tag was read into e,
// whose members it overwrites as encoding/xml does.
func (s *awsXMLScanner) errorElement(e *awsXMLError, name []byte, empty bool) bool {
	return s.content2(name, empty, func(child []byte, empty bool) bool {
		if f := e.field(child); f != nil {
			return s.text(f, child, empty)
		}
		return s.skip(child, empty)
	})
}

// content2 is content for an element that may have been empty (<x/>).
func (s *awsXMLScanner) content2(name []byte, empty bool, child func([]byte, bool) bool) bool {
	if empty {
		return true
	}
	return s.content(name, child, nil)
}

// text reads the text of the element name into *dst: its own text, the
// text of nested elements left out.
func (s *awsXMLScanner) text(dst *string, name []byte, empty bool) bool {
	if empty {
		*dst = ""
		return true
	}
	// The common case, plain text and the end tag: one slice of the body.
	b := s.b
	if n := bytes.IndexByte(b[s.i:], '<'); n >= 0 {
		end := s.i + n
		stop := end + 2 + len(name)
		if awsPlainText(b[s.i:end]) && stop < len(b) && b[end+1] == '/' &&
			bytes.Equal(b[end+2:stop], name) && b[stop] == '>' {
			*dst = string(b[s.i:end])
			s.i = stop + 1
			return true
		}
	}
	var buf []byte
	if !s.content(name, func(child []byte, empty bool) bool { return s.skip(child, empty) }, &buf) {
		return false
	}
	*dst = string(buf)
	return true
}

// skip reads past the element name, whose start tag was read.
func (s *awsXMLScanner) skip(name []byte, empty bool) bool {
	if empty {
		return true
	}
	return s.content(name, func(child []byte, empty bool) bool { return s.skip(child, empty) }, nil)
}

// awsPlainText reports whether text is printable ASCII, tabs and newlines
// without references: text encoding/xml returns as it is.
func awsPlainText(text []byte) bool {
	for _, c := range text {
		if !(c >= 0x20 && c < 0x7f || c == '\t' || c == '\n') || c == '&' {
			return false
		}
	}
	return true
}

// content reads the content of the element name up to and including its
// end tag: child is called after each child's start tag (and must read the
// child), and the text is appended to *text when text is not nil.
func (s *awsXMLScanner) content(name []byte, child func(name []byte, empty bool) bool, text *[]byte) bool {
	if s.depth++; s.depth > awsScanDepth {
		return false
	}
	defer func() { s.depth-- }()
	b := s.b
	for s.i < len(b) {
		if b[s.i] != '<' {
			if !s.chars(text) {
				return false
			}
			continue
		}
		if s.i+1 < len(b) && b[s.i+1] == '/' {
			s.i += 2
			end, ok := s.name(false)
			if !ok || !bytes.Equal(end, name) {
				return false
			}
			s.space()
			if s.i >= len(b) || b[s.i] != '>' {
				return false
			}
			s.i++
			return true
		}
		c, empty, ok := s.startTag()
		if !ok || !child(c, empty) {
			return false
		}
	}
	return false // the document ended inside the element
}

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
