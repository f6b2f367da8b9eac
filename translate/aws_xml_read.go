package translate

import (
	"bytes"
	"encoding/xml"
	"errors"
)

// awsXMLMaxDepth bounds the nesting of elements awsDecodeXML follows. AWS
// error documents are three or four levels deep; a deeper document is not
// read, so that an attacker's nesting costs the decoder no more than this
// many levels of its element stack.
const awsXMLMaxDepth = 64

// errAWSXMLDepth stops a document nested deeper than awsXMLMaxDepth.
var errAWSXMLDepth = errors.New("translate: aws xml nested too deep")

// awsDecodeXML reads the root element of body, cut at awsMaxXML, token by
// token with encoding/xml: what Decode into an awsXMLDoc would give, with
// only the first error of an EC2 <Errors> kept. It stops at the root's end
// tag, as Decode does. ok is false when the document is not well-formed up
// to there, or nested deeper than awsXMLMaxDepth.
func awsDecodeXML(body []byte) (doc awsXMLDoc, ok bool) {
	if len(body) > awsMaxXML {
		body = body[:awsMaxXML]
	}
	r := awsXMLReader{d: xml.NewDecoder(bytes.NewReader(body))}
	for {
		tok, err := r.d.Token()
		if err != nil {
			return awsXMLDoc{}, false
		}
		if root, isStart := tok.(xml.StartElement); isStart {
			doc.XMLName = root.Name
			break
		}
	}
	err := r.children(func(child xml.StartElement) error {
		switch child.Name.Local {
		case "Error":
			return r.errorElement(&doc.Error)
		case "Errors":
			return r.children(func(grand xml.StartElement) error {
				if grand.Name.Local != "Error" {
					return r.skip()
				}
				if len(doc.Errors) > 0 {
					return r.skip() // only the first is used; the rest cost no memory
				}
				var e awsXMLError
				err := r.errorElement(&e)
				doc.Errors = append(doc.Errors, e)
				return err
			})
		case "RequestID":
			return r.text(&doc.RequestID)
		}
		if f := doc.awsXMLError.field(child.Name.Local); f != nil {
			return r.text(f)
		}
		return r.skip()
	})
	if err != nil {
		return awsXMLDoc{}, false
	}
	return doc, true
}

// awsXMLReader reads the tokens of one document; depth is the number of
// elements open.
type awsXMLReader struct {
	d     *xml.Decoder
	depth int
}

// children reads the content of the element whose start tag was just read,
// up to and including its end tag, calling child after each child's start
// tag; child must read the child up to its end tag.
func (r *awsXMLReader) children(child func(xml.StartElement) error) error {
	if r.depth++; r.depth > awsXMLMaxDepth {
		return errAWSXMLDepth
	}
	defer func() { r.depth-- }()
	for {
		tok, err := r.d.Token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.StartElement:
			if err := child(t); err != nil {
				return err
			}
		case xml.EndElement:
			return nil
		}
	}
}

// skip reads past the element whose start tag was just read.
func (r *awsXMLReader) skip() error {
	return r.children(func(xml.StartElement) error { return r.skip() })
}

// text reads the element whose start tag was just read into *dst: its own
// text, the text of nested elements left out, as Decode fills a string.
func (r *awsXMLReader) text(dst *string) error {
	var text []byte
	if r.depth++; r.depth > awsXMLMaxDepth {
		return errAWSXMLDepth
	}
	defer func() { r.depth-- }()
	for {
		tok, err := r.d.Token()
		if err != nil {
			return err
		}
		switch t := tok.(type) {
		case xml.CharData:
			text = append(text, t...)
		case xml.StartElement:
			if err := r.skip(); err != nil {
				return err
			}
		case xml.EndElement:
			*dst = string(text)
			return nil
		}
	}
}

// errorElement reads an <Error> element whose start tag was just read into
// e, overwriting the members it holds and keeping the others, as Decode
// does.
func (r *awsXMLReader) errorElement(e *awsXMLError) error {
	return r.children(func(child xml.StartElement) error {
		if f := e.field(child.Name.Local); f != nil {
			return r.text(f)
		}
		return r.skip()
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
