package toolerr

import (
	"fmt"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tiktoken-go/tokenizer"

	"github.com/toolerr/toolerr/internal/docpage"
)

// typicalValidationError is the contract page's validation error: one bad
// argument with its range and a suggestion, a service hint, the
// middleware's 32-hex request id.
func typicalValidationError() *Error {
	return Default().New(CodeValidationFailed, "limit must be between 1 and 100; got 500.").
		WithField("limit").WithAllowedValues(Range{Minimum: 1, Maximum: 100}).WithSuggestedValue(100).
		WithHint("Set limit between 1 and 100.").
		WithRequestID("23542063b11c4f77c3a9c158b879217a")
}

// tokens counts text in the encoding.
func tokens(t *testing.T, enc tokenizer.Codec, text string) int {
	t.Helper()
	ids, _, err := enc.Encode(text)
	require.NoError(t, err)
	return len(ids)
}

// TestObservationTokens measures the observation with real BPE encodings
// (cl100k_base and o200k_base, ranks embedded in the tokenizer module)
// against the problem+json of the same error. The figures are recorded
// in BENCHMARKS.md; the bounds here keep them from growing unnoticed, and
// the contract page must give the typical error's counts as measured.
func TestObservationTokens(t *testing.T) {
	for _, name := range []tokenizer.Encoding{tokenizer.Cl100kBase, tokenizer.O200kBase} {
		enc, err := tokenizer.Get(name)
		require.NoError(t, err)

		e := typicalValidationError()
		obs, problem := tokens(t, enc, e.Observation()), tokens(t, enc, string(e.AppendJSON(nil)))
		t.Logf("%s: typical validation error: observation %d tokens, problem+json %d", name, obs, problem)
		assert.LessOrEqual(t, obs, 85, "typical validation error")
		assert.Less(t, float64(obs), 0.6*float64(problem), "well under the problem+json")
		docpage.Says(t, contractPage, fmt.Sprintf("%d tokens in cl100k_base and o200k_base for the error above, against %d for its problem+json", obs, problem))

		worst, worstCode := 0, ""
		for _, d := range Default().Defs() {
			e := Default().New(d.Code, "").WithRequestID("23542063b11c4f77c3a9c158b879217a")
			if d.Retryable {
				e = e.WithRetryAfter(1500 * time.Millisecond)
			}
			n := tokens(t, enc, e.Observation())
			assert.Less(t, n, tokens(t, enc, string(e.AppendJSON(nil))), d.Code)
			if n > worst {
				worst, worstCode = n, d.Code
			}
		}
		t.Logf("%s: largest built-in code with its default texts: %s, %d tokens", name, worstCode, worst)
		assert.LessOrEqual(t, worst, 110)
	}
}
