package toolerr

import (
	"slices"
	"unicode/utf8"
)

// minEncodedText is the shortest definition text whose JSON encoding a
// definition keeps: below it, encoding the text costs no more than finding
// it.
const minEncodedText = 24

// encodedText is one text of a definition and its JSON encoding.
type encodedText struct {
	text, enc string
}

// encodeTexts returns the JSON encodings of the texts of d that every
// error of its code renders (title, hints, repair steps, their wordings).
// Errors render them by a lookup instead of encoding them again (about
// half the bytes of a typical error body are these). A definition has a
// handful of such texts, so they are a slice compared with ==, which
// hashes nothing: a text that is the definition's own string compares by
// its pointer, and one of another length costs a length check.
func (d *Def) encodeTexts() []encodedText {
	var enc []encodedText
	add := func(texts ...string) {
		for _, s := range texts {
			if len(s) >= minEncodedText && utf8.ValidString(s) && !slices.ContainsFunc(enc, func(t encodedText) bool { return t.text == s }) {
				enc = append(enc, encodedText{s, string(appendString(nil, s, 0))})
			}
		}
	}
	add(d.Title, d.Hint, d.HumanHint)
	add(d.Repair...)
	for _, w := range d.Wordings {
		add(w.Hint, w.HumanHint)
		add(w.Repair...)
	}
	return slices.Clip(enc)
}

// appendText appends s as appendString(dst, s, max) does, from d's
// encodings when s is one of its texts and needs no cut. d may be nil.
func (d *Def) appendText(dst []byte, s string, max int) []byte {
	if d != nil && len(s) >= minEncodedText && len(s) <= max {
		for i := range d.encoded {
			if d.encoded[i].text == s {
				return append(dst, d.encoded[i].enc...)
			}
		}
	}
	return appendString(dst, s, max)
}
