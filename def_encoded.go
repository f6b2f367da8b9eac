package toolerr

import "unicode/utf8"

// minEncodedText is the shortest definition text whose JSON encoding a
// definition keeps: below it, encoding the text costs no more than finding
// it.
const minEncodedText = 24

// encodeTexts returns the JSON encodings of the texts of d that every
// error of its code renders (title, hints, repair steps, their wordings),
// keyed by the text. Errors render them by a lookup instead of encoding
// them again (about half the bytes of a typical error body are these).
func (d *Def) encodeTexts() map[string]string {
	enc := make(map[string]string)
	add := func(texts ...string) {
		for _, s := range texts {
			if len(s) >= minEncodedText && utf8.ValidString(s) {
				enc[s] = string(appendString(nil, s, 0))
			}
		}
	}
	add(d.Title, d.Hint, d.HumanHint)
	add(d.Repair...)
	for _, w := range d.Wordings {
		add(w.Hint, w.HumanHint)
		add(w.Repair...)
	}
	return enc
}

// appendText appends s as appendString(dst, s, max) does, from d's
// encodings when s is one of its texts and needs no cut. d may be nil.
func (d *Def) appendText(dst []byte, s string, max int) []byte {
	if d != nil && len(s) >= minEncodedText && len(s) <= max {
		if enc, ok := d.encoded[s]; ok {
			return append(dst, enc...)
		}
	}
	return appendString(dst, s, max)
}
