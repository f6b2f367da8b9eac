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
