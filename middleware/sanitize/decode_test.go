package sanitize

import (
	"encoding/binary"
	"strings"
	"testing"
	"unicode/utf16"

	"github.com/stretchr/testify/assert"
)

const (
	decStripe = "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
	decHost   = "db-1.prod.internal"
)

// wide encodes s in UTF-16 or UTF-32 of the given byte order, with or
// without a byte-order mark.
func wide(s string, bits int, big, bom bool) string {
	var order binary.AppendByteOrder = binary.LittleEndian
	if big {
		order = binary.BigEndian
	}
	var b []byte
	if bits == 16 {
		units := utf16.Encode([]rune(s))
		if bom {
			units = append([]uint16{0xfeff}, units...)
		}
		for _, u := range units {
			b = order.AppendUint16(b, u)
		}
		return string(b)
	}
	runes := []rune(s)
	if bom {
		runes = append([]rune{0xfeff}, runes...)
	}
	for _, r := range runes {
		b = order.AppendUint32(b, uint32(r))
	}
	return string(b)
}

// TestCleanDecodesWideText: a body in UTF-16 or UTF-32 is read as text, so
// its secrets and internal hosts are redacted instead of reaching the agent
// as "s k _ l i v e _ …".
func TestCleanDecodesWideText(t *testing.T) {
	msg := "upstream failed with key " + decStripe + " at " + decHost + " — réessayez"
	s := New(WithHostname(""))
	for _, bits := range []int{16, 32} {
		for _, big := range []bool{false, true} {
			for _, bom := range []bool{true, false} {
				in := wide(msg, bits, big, bom)
				got, rep := s.Clean(in)
				spaced := strings.Join(strings.Split("sk_live_4eC39", ""), " ")
				assert.NotContains(t, got, "4eC39HqLyjWD", "bits=%d big=%v bom=%v: %q", bits, big, bom, got)
				assert.NotContains(t, got, spaced)
				assert.NotContains(t, got, "p r o d")
				assert.NotContains(t, got, "prod.internal")
				if bom {
					assert.Contains(t, got, "upstream failed with key [REDACTED:", "decoded, not dropped")
					assert.Contains(t, got, "réessayez")
					assert.Equal(t, 1, rep.Count(KindDecoded))
				} else if bits == 16 || !big {
					// Unmarked: the NUL bytes go and the ASCII reads.
					assert.Contains(t, got, "upstream failed with key [REDACTED:", "%q", got)
				}
			}
		}
	}
}

// TestCleanNULInterleavedInsideText: NUL-interleaved ASCII in the middle
// of ordinary text, at either alignment, is read as what it is.
func TestCleanNULInterleavedInsideText(t *testing.T) {
	s := New(WithHostname(""))
	for _, prefix := range []string{"error: ", "error:  ", "ab "} {
		in := prefix + wide(decStripe, 16, false, false) + " done"
		got, _ := s.Clean(in)
		assert.NotContains(t, got, "4eC39HqLyjWD", "%q", got)
		assert.Contains(t, got, "[REDACTED:")
	}
}

// TestCleanInvisibleCharacters: zero-width and soft-hyphen characters
// inside a token do not shield it.
func TestCleanInvisibleCharacters(t *testing.T) {
	s := New(WithHostname(""))
	for _, sep := range []string{"\u200b", "\u200c", "\u200d", "\u2060", "\ufeff", "\u00ad"} {
		in := "key " + strings.Join(strings.Split(decStripe, ""), sep) + " and host " + strings.Join(strings.Split(decHost, ""), sep)
		got, rep := s.Clean(in)
		assert.NotContains(t, got, "4eC39HqLyjWD", "sep %q: %q", sep, got)
		assert.NotContains(t, got, "prod")
		assert.Positive(t, rep.Count(KindInvisible))
	}
}

// TestCleanUndecodableYieldsNothing: binary data, or wide text of another
// script without a mark, cannot be shown clean and yields no text.
func TestCleanUndecodableYieldsNothing(t *testing.T) {
	s := New()
	binaryish := string([]byte{0, 1, 2, 3, 0, 5, 6, 0, 8, 0x0e, 0x0f, 0, 0x10, 0x11, 0, 0x12}) + " sk_live_4eC39HqLyjWD"
	cyrillic := wide("Ошибка: неверный ключ доступа, повторите попытку позже", 16, false, false)
	for name, in := range map[string]string{"binary": binaryish, "unmarked cyrillic": cyrillic, "bom then junk": "\xff\xfe\x01\x00\x02\x00\x03\x00"} {
		got, rep := s.Clean(in)
		assert.Empty(t, got, name)
		assert.Equal(t, 1, rep.Count(KindUndecodable), name)
		assert.Empty(t, s.Redact(in), name)
	}
}

// TestCleanInvalidUTF8NeverShields is the FuzzCapturedResponse finding at
// the sanitizer: digits mixed with invalid bytes before a token.
func TestCleanInvalidUTF8NeverShields(t *testing.T) {
	const tok = "ghp_R4nd0mT0kenV4lueF0rFuzz1ngAbCdEf0123"
	junk := "000\xed000\x9d0\xe30\xb80000000\xb4ն\xc40000\xd200\x920\xa40\xb70\x940\xb500\x8b0\x990\xd00\xb000\xdf000"
	got, _ := New().Clean(junk + " token " + tok)
	assert.NotContains(t, got, "R4nd0mT0ken")
	assert.Contains(t, got, "[REDACTED:")
}

// TestCleanInputCapDropsTheCutWord: a token cut by the input cap leaves no
// fragment; a text cut at a space keeps its last whole word.
func TestCleanInputCapDropsTheCutWord(t *testing.T) {
	const tok = "ghp_R4nd0mT0kenV4lueF0rFuzz1ngAbCdEf0123"
	s := New(WithMaxInput(1024))
	for cut := 5; cut < len(tok); cut += 4 {
		in := strings.Repeat(" ", 1024-cut) + tok + " more"
		got, rep := s.Clean(in)
		assert.NotContains(t, got, tok[:5], "cut after %d bytes: %q", cut, got)
		assert.Positive(t, rep.Count(KindInputCapped))
		assert.NotContains(t, s.Redact(in), tok[:5])
	}
	got, _ := s.Clean(strings.Repeat("word ", 300))
	assert.True(t, strings.HasSuffix(got, "word"), "%q", got[len(got)-12:])
	// A text that is one word longer than the cap goes whole.
	one := "ghp_" + strings.Repeat("R4nd0m", 300)
	got, _ = s.Clean(one)
	assert.Empty(t, got)
	assert.Empty(t, s.Redact(one))
}

// TestCleanUTF8BOM: a UTF-8 byte-order mark is dropped, nothing else.
func TestCleanUTF8BOM(t *testing.T) {
	got, rep := New().Clean("\xef\xbb\xbfhello world")
	assert.Equal(t, "hello world", got)
	assert.Zero(t, rep.Count(KindDecoded))
}
