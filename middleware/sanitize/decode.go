package sanitize

import (
	"encoding/binary"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// The decoding stage runs before every other: a rule can only match text
// it can read. A body in UTF-16 or UTF-32 (a Windows service, a .NET error
// page) reads as "s k _ l i v e _ …" once its NUL bytes become spaces:
// plain to a model, invisible to every rule. Invisible format characters
// (zero-width space, soft hyphen) split a token the same way. So:
//
//   - a byte-order mark selects UTF-8, UTF-16 or UTF-32, and the text is
//     decoded from it;
//   - NUL bytes are removed: NUL-interleaved ASCII (UTF-16 or UTF-32
//     without a mark, at any alignment, even in the middle of other text)
//     then reads as what it is;
//   - a text that is still mostly unreadable after that (binary data,
//     UTF-16 of another script without a mark) yields nothing: fail closed;
//   - invisible format characters are removed.
//
// Guessing the byte order of unmarked text from where its NUL bytes fall is
// not done: one stray byte shifts the alignment, and the guess would then
// turn "sk_live_…" into a CJK character followed by "k_live_…", readable
// by a model and matched by no rule.

// decodeMaxJunk is the share of runes, in percent, that may be unreadable
// (U+FFFD or control characters other than white space) in a decoded text
// before it counts as undecodable.
const decodeMaxJunk = 10

// invisibleRunes are format characters a reader does not see: removing
// them joins what they split.
var invisibleRunes = strings.NewReplacer(
	"\u200b", "", // zero-width space
	"\u200c", "", // zero-width non-joiner
	"\u200d", "", // zero-width joiner
	"\u2060", "", // word joiner
	"\ufeff", "", // zero-width no-break space (a BOM inside text)
	"\u00ad", "", // soft hyphen
	"\u180e", "", // Mongolian vowel separator
)

// textEncoding is an encoding a byte-order mark names.
type textEncoding int

const (
	encUTF8 textEncoding = iota
	encUTF16LE
	encUTF16BE
	encUTF32LE
	encUTF32BE
)

// decodeText returns text as UTF-8 with the stage's rules applied, and
// false when it is undecodable and must yield nothing. It counts what it
// did in rep. Text with no NUL byte and no byte-order mark costs one
// search for a NUL byte and, when it has non-ASCII bytes, one search for
// each invisible character's lead byte.
func decodeText(text string, rep *Report) (string, bool) {
	enc, bom := sniffBOM(text)
	text = text[bom:]
	if enc != encUTF8 {
		text = decodeWide(text, enc)
		rep.add(KindDecoded, 1)
		if !mostlyReadable(text) {
			rep.add(KindUndecodable, 1)
			return "", false
		}
	}
	if strings.IndexByte(text, 0) >= 0 {
		rep.add(KindInvisible, strings.Count(text, "\x00"))
		text = strings.ReplaceAll(text, "\x00", "")
		if !mostlyReadable(text) {
			rep.add(KindUndecodable, 1)
			return "", false
		}
	}
	if mayHaveInvisible(text) {
		before := len(text)
		text = invisibleRunes.Replace(text)
		if len(text) != before {
			rep.add(KindInvisible, 1)
		}
	}
	return text, true
}

// sniffBOM returns the encoding a byte-order mark at the start of s names,
// and the mark's length (0 when there is none).
func sniffBOM(s string) (textEncoding, int) {
	switch {
	case strings.HasPrefix(s, "\x00\x00\xfe\xff"):
		return encUTF32BE, 4
	case strings.HasPrefix(s, "\xff\xfe\x00\x00"):
		return encUTF32LE, 4
	case strings.HasPrefix(s, "\xef\xbb\xbf"):
		return encUTF8, 3
	case strings.HasPrefix(s, "\xfe\xff"):
		return encUTF16BE, 2
	case strings.HasPrefix(s, "\xff\xfe"):
		return encUTF16LE, 2
	}
	return encUTF8, 0
}

// decodeWide decodes s from a UTF-16 or UTF-32 encoding to UTF-8. A
// trailing partial code unit is dropped; unpaired surrogates and values
// past U+10FFFF become U+FFFD.
func decodeWide(s string, enc textEncoding) string {
	b := []byte(s)
	var sb strings.Builder
	sb.Grow(len(b))
	switch enc {
	case encUTF16LE, encUTF16BE:
		order := binary.ByteOrder(binary.LittleEndian)
		if enc == encUTF16BE {
			order = binary.BigEndian
		}
		units := make([]uint16, 0, len(b)/2)
		for i := 0; i+1 < len(b); i += 2 {
			units = append(units, order.Uint16(b[i:]))
		}
		for _, r := range utf16.Decode(units) {
			sb.WriteRune(r)
		}
	case encUTF32LE, encUTF32BE:
		order := binary.ByteOrder(binary.LittleEndian)
		if enc == encUTF32BE {
			order = binary.BigEndian
		}
		for i := 0; i+3 < len(b); i += 4 {
			r := rune(order.Uint32(b[i:]))
			if r < 0 || r > utf8.MaxRune || (r >= 0xd800 && r <= 0xdfff) {
				r = utf8.RuneError
			}
			sb.WriteRune(r)
		}
	}
	return sb.String()
}

// mostlyReadable reports whether at most decodeMaxJunk percent of the
// runes of s are U+FFFD or control characters other than white space.
func mostlyReadable(s string) bool {
	runes, junk := 0, 0
	for _, r := range s {
		runes++
		switch {
		case r == utf8.RuneError, r < ' ' && r != '\t' && r != '\n' && r != '\r', r == 0x7f:
			junk++
		}
	}
	return junk*100 <= runes*decodeMaxJunk
}

// mayHaveInvisible reports whether s may hold one of [invisibleRunes]: it
// has one of their lead bytes.
func mayHaveInvisible(s string) bool {
	return strings.IndexByte(s, 0xe2) >= 0 || strings.IndexByte(s, 0xef) >= 0 ||
		strings.IndexByte(s, 0xc2) >= 0 || strings.IndexByte(s, 0xe1) >= 0
}
