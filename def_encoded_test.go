package toolerr

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// withoutEncodings returns a copy of e whose definition keeps no
// encodings, so that every text is encoded as it renders.
func withoutEncodings(e *Error) *Error {
	c := *e
	if e.def != nil {
		d := *e.def
		d.encoded = nil
		c.def = &d
	}
	return &c
}

// TestEncodedTextsRenderAsEncodingThem renders an error of every built-in
// code, bare and carrying the members the wordings choose by, with and
// without the definitions' stored encodings: the bodies must be the same
// bytes, in every format.
func TestEncodedTextsRenderAsEncodingThem(t *testing.T) {
	defs := Default().Defs()
	require.NotEmpty(t, defs)
	used := 0
	for _, d := range defs {
		bare := Default().New(d.Code, "")
		carrying := bare.WithField("/limit").WithAllowedValues([]string{"a", "b"}).
			WithSuggestedValue("a").WithRetryAfter(2 * time.Second).WithTool("search")
		for _, e := range []*Error{bare, carrying} {
			plain := withoutEncodings(e)
			assert.Equal(t, string(plain.AppendJSON(nil)), string(e.AppendJSON(nil)), d.Code)
			assert.Equal(t, string(plain.AppendEnvelope(nil)), string(e.AppendEnvelope(nil)), d.Code)
			if len(e.def.encoded) > 0 {
				used++
			}
		}
	}
	assert.Positive(t, used, "the built-in definitions keep encodings")
}

// TestEncodedTextIsNotUsedForAnotherText: a handler's own hint, or a
// definition text longer than its member's cap, is encoded (and cut) as
// it renders.
func TestEncodedTextIsNotUsedForAnotherText(t *testing.T) {
	d := &Def{Hint: "Retry the call with a smaller page size, please."}
	d.encoded = d.encodeTexts()
	require.Len(t, d.encoded, 1)
	require.Equal(t, d.Hint, d.encoded[0].text)
	other := "Retry the call <soon>, with a smaller page."
	assert.Equal(t, `"Retry the call \u003csoon\u003e, with a smaller page."`, string(d.appendText(nil, other, MaxHintLen)))
	assert.Equal(t, string(appendString(nil, d.Hint, 10)), string(d.appendText(nil, d.Hint, 10)), "cut at the cap")
	var none *Def
	assert.Equal(t, `"x"`, string(none.appendText(nil, "x", 10)))
}
