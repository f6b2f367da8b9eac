package translate

import (
	"bytes"
	"encoding/xml"
	"errors"
)

// awsXMLMaxDepth bounds the nesting of elements awsDecodeXML follows. AWS
// error documents are three or four levels deep; a deeper document is not
// read, so that an attacker's nesting costs no more than this many levels
// of the reader's recursion. (The body cap bounds everything else: the
// decoder reads the capped body in place, and only the first EC2 error is
// kept.)
const awsXMLMaxDepth = 64

// errAWSXMLDepth stops a document nested deeper than awsXMLMaxDepth.
var errAWSXMLDepth = errors.New("translate: aws xml nested too deep")

// awsDecodeXML reads the root element of body, cut at awsMaxXML, token by
// token with encoding/xml: what Decode into an awsXMLDoc would give, with
// only the first error of an EC2 <Errors> kept. It stops at the root's end
// tag, as Decode does. ok is false when the document is not well-formed up
// to there, or nested deeper than awsXMLMaxDepth.
//
// The tokens are the decoder's raw ones (RawToken): Token would also match
// each end tag to its start tag and translate every name's prefix, at the
// cost of a stack entry and a second allocation of every tag's token (a
// third of the reader's allocations). The reader matches the tags itself,
// as Token does (the same name and prefix), and translates only the root's
// name (rootSpace): no other name's namespace is read.
func awsDecodeXML(body []byte) (doc awsXMLDoc, ok bool) {
	if len(body) > awsMaxXML {
		body = body[:awsMaxXML]
	}
	r := awsXMLReader{d: xml.NewDecoder(bytes.NewReader(body))}
	var root xml.StartElement
	for {
		tok, err := r.d.RawToken()
		if err != nil {
			return awsXMLDoc{}, false
		}
		if t, isStart := tok.(xml.StartElement); isStart {
			root = t
			break
		}
		if _, isEnd := tok.(xml.EndElement); isEnd {
			return awsXMLDoc{}, false // an end tag with no element open
		}
	}
	doc.XMLName = xml.Name{Space: rootSpace(root), Local: root.Name.Local}
	err := r.children(root.Name, func(child xml.StartElement) error {
		switch child.Name.Local {
		case "Error":
			return r.errorElement(child.Name, &doc.Error)
		case "Errors":
			return r.children(child.Name, func(grand xml.StartElement) error {
				if grand.Name.Local != "Error" || len(doc.Errors) > 0 {
					return r.skip(grand.Name) // only the first is used; the rest cost no memory
				}
				var e awsXMLError
				err := r.errorElement(grand.Name, &e)
				doc.Errors = append(doc.Errors, e)
				return err
			})
		case "RequestID":
			return r.text(child.Name, &doc.RequestID)
		}
		if f := doc.awsXMLError.field(child.Name.Local); f != nil {
			return r.text(child.Name, f)
		}
		return r.skip(child.Name)
	})
	if err != nil {
		return awsXMLDoc{}, false
	}
	return doc, true
}

// rootSpace returns the namespace of the root element as Token gives it:
// its prefix's URL, declared by the root's own xmlns:prefix attribute (the
// last one), or for no prefix the root's xmlns attribute; the XML
// namespace for the xml prefix; an undeclared prefix as it is.
func rootSpace(root xml.StartElement) string {
	space := root.Name.Space
	switch {
	case space == "xmlns", space == "" && root.Name.Local == "xmlns":
		return space
	case space == "xml":
		space = "http://www.w3.org/XML/1998/namespace"
	}
	url, declared := "", false
	for _, a := range root.Attr {
		if a.Name.Space == "xmlns" && a.Name.Local == space || space == "" && a.Name.Space == "" && a.Name.Local == "xmlns" {
			url, declared = a.Value, true
		}
	}
	if declared {
		return url
	}
	return space
}

// errAWSXMLEndTag stops a document whose end tag does not close the open
// element.
var errAWSXMLEndTag = errors.New("translate: aws xml end tag does not match")

// awsXMLReader reads the raw tokens of one document; depth is the number
// of elements open.
type awsXMLReader struct {
	d     *xml.Decoder
	depth int
}

// children reads the content of the element name, whose start tag was
// just read, up to and including its end tag, calling child after each
// child's start tag; child must read the child up to its end tag.
func (r *awsXMLReader) children(name xml.Name, child func(xml.StartElement) error) error {
	return r.content(name, child, nil)
}

// content is children that also hands the element's own text, piece by
// piece, to text when it is not nil.
func (r *awsXMLReader) content(name xml.Name, child func(xml.StartElement) error, text func(xml.CharData)) error {
	if r.depth++; r.depth > awsXMLMaxDepth {
		return errAWSXMLDepth
	}
	defer func() { r.depth-- }()
	for {
		tok, err := r.d.RawToken()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if err := child(t); err != nil {
				return err
			}
		case xml.CharData:
			if text != nil {
				text(t)
			}
		case xml.EndElement:
			if t.Name != name {
				return errAWSXMLEndTag
			}
			return nil
		}
	}
}

// skip reads past the element name, whose start tag was just read.
func (r *awsXMLReader) skip(name xml.Name) error {
	return r.children(name, func(child xml.StartElement) error { return r.skip(child.Name) })
}

// text reads the element name, whose start tag was just read, into *dst:
// its own text, the text of nested elements left out, as Decode fills a
// string.
func (r *awsXMLReader) text(name xml.Name, dst *string) error {
	var (
		text   string
		joined []byte // the text when it comes in more than one piece
		pieces int
	)
	err := r.content(name, func(child xml.StartElement) error { return r.skip(child.Name) }, func(t xml.CharData) {
		switch pieces++; pieces {
		case 1:
			text = string(t)
		case 2:
			joined = append(append(joined, text...), t...)
		default:
			joined = append(joined, t...)
		}
	})
	if err != nil {
		return err
	}
	if pieces > 1 {
		text = string(joined)
	}
	*dst = text
	return nil
}

// errorElement reads the <Error> element name, whose start tag was just
// read, into e, overwriting the members it holds and keeping the others,
// as Decode does.
func (r *awsXMLReader) errorElement(name xml.Name, e *awsXMLError) error {
	return r.children(name, func(child xml.StartElement) error {
		if f := e.field(child.Name.Local); f != nil {
			return r.text(child.Name, f)
		}
		return r.skip(child.Name)
	})
}

// field returns the member of e that the element name fills, or nil.
func (e *awsXMLError) field(name string) *string {
	switch name {
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
