package translate

import (
	"github.com/toolerr/toolerr/classify"
)

// textGenericTranslate reads failures whose body is not a JSON error: an
// HTML page (its title or first heading), an XML document (its <Code> and
// <Message>), or plain text (the first line, bounded; of Django's plain-text
// debug page, the exception and its value: generic_debug_text.go). The
// status decides the class.
//
// It reads the message of a non-empty, non-JSON failure body.
func textGenericTranslate(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 {
		return classify.Outcome{}, false
	}
	b := trimLeftSpace(r.Body)
	if len(b) == 0 || b[0] == '{' || b[0] == '[' {
		// Empty, or JSON no shape matched: its raw text is no message.
		return classify.Outcome{}, false
	}
	o := classify.Outcome{RequestID: requestIDOf(nil, r)}
	switch {
	case r.IsXML():
		o.Message = pageElement(b, "message")
		if c := pageElement(b, "code"); isCode(c) {
			o.VendorCode = dropStatusCode(c, r.Status)
		}
	case b[0] == '<' || r.IsHTML():
		for _, tag := range [...]string{"title", "h1", "h2"} {
			if o.Message = pageElement(b, tag); o.Message != "" {
				break
			}
		}
	default:
		if o.Message = debugTextHeadline(b); o.Message == "" {
			o.Message = firstTextLine(b)
		}
	}
	return o, true
}

// fallbackGenericTranslate accepts every failure (status >= 400) so that the
// Set always produces an outcome: an empty body, or a body no other
// translator read. The status decides the class; the message is empty.
//
// It accepts any failure, with the X-Request-Id header as RequestID.
func fallbackGenericTranslate(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 {
		return classify.Outcome{}, false
	}
	return classify.Outcome{RequestID: requestIDOf(nil, r)}, true
}
