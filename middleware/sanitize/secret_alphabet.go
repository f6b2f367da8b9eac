package sanitize

// The alphabets of token bodies. Each is a set of ASCII bytes; a token
// part is a run of one alphabet's bytes.

// alphabet names one set of bytes.
type alphabet uint8

const (
	alphaAlnum        alphabet = iota // A-Z a-z 0-9
	alphaURL                          // A-Z a-z 0-9 - _ (base64url)
	alphaUpperNum                     // A-Z 0-9
	alphaLowerNum                     // a-z 0-9
	alphaLowerHex                     // 0-9 a-f
	alphaHex                          // 0-9 a-f A-F
	alphaDigit                        // 0-9
	alphaWord                         // A-Z a-z 0-9 _
	alphaURLDot                       // A-Z a-z 0-9 - _ .
	alphaURLEq                        // A-Z a-z 0-9 - _ =
	alphaURLDotEq                     // A-Z a-z 0-9 - _ . =
	alphaBase64                       // A-Z a-z 0-9 + / =
	alphaBase64Word                   // A-Z a-z 0-9 + / = _
	alphaUpperNumDash                 // A-Z 0-9 -
	alphaHexDash                      // 0-9 a-f A-F -
	alphaAlnumPct                     // A-Z a-z 0-9 %
	alphaAzure                        // A-Z a-z 0-9 _ ~ . -
	alphaWebhookPath                  // A-Z a-z 0-9 _ - / @
	alphaAlnumDollar                  // A-Z a-z 0-9 $
	numAlphabets
)

// alphabetSpecs describe each alphabet: which letters and digits it holds,
// and its other bytes.
var alphabetSpecs = [numAlphabets]struct {
	upper, lower, digits bool
	hexOnly              bool // only a-f (and A-F when upper) of the letters
	extra                string
}{
	alphaAlnum:        {upper: true, lower: true, digits: true},
	alphaURL:          {upper: true, lower: true, digits: true, extra: "-_"},
	alphaUpperNum:     {upper: true, digits: true},
	alphaLowerNum:     {lower: true, digits: true},
	alphaLowerHex:     {lower: true, digits: true, hexOnly: true},
	alphaHex:          {upper: true, lower: true, digits: true, hexOnly: true},
	alphaDigit:        {digits: true},
	alphaWord:         {upper: true, lower: true, digits: true, extra: "_"},
	alphaURLDot:       {upper: true, lower: true, digits: true, extra: "-_."},
	alphaURLEq:        {upper: true, lower: true, digits: true, extra: "-_="},
	alphaURLDotEq:     {upper: true, lower: true, digits: true, extra: "-_.="},
	alphaBase64:       {upper: true, lower: true, digits: true, extra: "+/="},
	alphaBase64Word:   {upper: true, lower: true, digits: true, extra: "+/=_"},
	alphaUpperNumDash: {upper: true, digits: true, extra: "-"},
	alphaHexDash:      {upper: true, lower: true, digits: true, hexOnly: true, extra: "-"},
	alphaAlnumPct:     {upper: true, lower: true, digits: true, extra: "%"},
	alphaAzure:        {upper: true, lower: true, digits: true, extra: "_~.-"},
	alphaWebhookPath:  {upper: true, lower: true, digits: true, extra: "_-/@"},
	alphaAlnumDollar:  {upper: true, lower: true, digits: true, extra: "$"},
}

// alphabetTable holds, for each alphabet, which bytes belong to it. It is
// built once and never written after.
var alphabetTable = func() (t [numAlphabets][256]bool) {
	for a, sp := range alphabetSpecs {
		for c := 0; c < 256; c++ {
			b := byte(c)
			switch {
			case b >= '0' && b <= '9':
				t[a][c] = sp.digits
			case b >= 'a' && b <= 'z':
				t[a][c] = sp.lower && (!sp.hexOnly || b <= 'f')
			case b >= 'A' && b <= 'Z':
				t[a][c] = sp.upper && (!sp.hexOnly || b <= 'F')
			}
		}
		for k := 0; k < len(sp.extra); k++ {
			t[a][sp.extra[k]] = true
		}
	}
	return t
}()

// inAlphabet reports whether c belongs to the alphabet a.
func inAlphabet(a alphabet, c byte) bool { return alphabetTable[a][c] }
