package translate

import (
	"github.com/toolerr/toolerr/classify"
)

// textGeneric reads failures whose body is not a JSON error: an HTML page
// (its title or first heading), an XML document (its <Code> and <Message>),
// or plain text (the first line, bounded; of Django's plain-text debug
// page, the exception and its value: generic_debug_text.go). The status decides the class.
type textGeneric struct{}

// Vendor returns "": a generic format.
func (textGeneric) Vendor() string { return "" }

// Hosts returns nil.
func (textGeneric) Hosts() []string { return nil }

// Recognizes returns false: generic translators are tried for every
// response, not by recognition.
func (textGeneric) Recognizes(*Raw) bool { return false }

// Codes returns nil: a generic format has no code table.
func (textGeneric) Codes() map[string]string { return nil }

// Translate reads the message of a non-empty, non-JSON failure body.
func (textGeneric) Translate(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 {
		return classify.Outcome{}, false
	}
	b := trimLeftSpace(r.Body)
	if len(b) == 0 || b[0] == '{' || b[0] == '[' {
		// Empty, or JSON no shape matched: its raw text is no message.
		return classify.Outcome{}, false
	}
	o := classify.Outcome{RequestID: genRequestID(nil, r)}
	switch {
	case r.IsXML():
		o.Message = gwElement(b, "message")
		if c := gwElement(b, "code"); isCode(c) {
			o.VendorCode = genStatusCode(c, r.Status)
		}
	case b[0] == '<' || r.IsHTML():
		for _, tag := range [...]string{"title", "h1", "h2"} {
			if o.Message = gwElement(b, tag); o.Message != "" {
				break
			}
		}
	default:
		if o.Message = debugTextHeadline(b); o.Message == "" {
			o.Message = gwFirstLine(b)
		}
	}
	return o, true
}

// fallbackGeneric accepts every failure (status >= 400) so that the Set
// always produces an outcome: an empty body, or a body no other translator
// read. The status decides the class; the message is empty.
type fallbackGeneric struct{}

// Vendor returns "": a generic format.
func (fallbackGeneric) Vendor() string { return "" }

// Hosts returns nil.
func (fallbackGeneric) Hosts() []string { return nil }

// Recognizes returns false: generic translators are tried for every
// response, not by recognition.
func (fallbackGeneric) Recognizes(*Raw) bool { return false }

// Codes returns nil: a generic format has no code table.
func (fallbackGeneric) Codes() map[string]string { return nil }

// Translate accepts any failure, with the X-Request-Id header as RequestID.
func (fallbackGeneric) Translate(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 {
		return classify.Outcome{}, false
	}
	return classify.Outcome{RequestID: genRequestID(nil, r)}, true
}
