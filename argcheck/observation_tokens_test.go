package argcheck

import (
	"slices"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/tiktoken-go/tokenizer"

	"github.com/toolerr/toolerr"
)

// TestViolationObservationTokens measures, with real BPE encodings
// (cl100k_base and o200k_base), what argcheck's VALIDATION_FAILED costs a
// model's context as the observation and as problem+json: over every call
// of the repair corpus (median and largest), with the middleware's 32-hex
// request id. The figures are recorded in BENCHMARKS.md; the bounds keep
// them from growing unnoticed.
func TestViolationObservationTokens(t *testing.T) {
	schemas := corpusSchemas(t, corpusDir)
	calls := readCorpusCalls(t, corpusDir, "calls.jsonl")
	for _, name := range []tokenizer.Encoding{tokenizer.Cl100kBase, tokenizer.O200kBase} {
		enc, err := tokenizer.Get(name)
		require.NoError(t, err)
		count := func(s string) int {
			ids, _, err := enc.Encode(s)
			require.NoError(t, err)
			return len(ids)
		}
		var obs, problem, singles []int
		for _, c := range calls {
			e, _ := toolerr.From(schemas[c.Schema].Check(corpusArguments(t, c)))
			require.NotNil(t, e)
			e = e.WithTool(c.Schema).WithRequestID("23542063b11c4f77c3a9c158b879217a")
			obs = append(obs, count(e.Observation()))
			problem = append(problem, count(string(e.AppendJSON(nil))))
			if len(c.Violations) == 1 {
				singles = append(singles, obs[len(obs)-1])
			}
		}
		slices.Sort(obs)
		slices.Sort(problem)
		slices.Sort(singles)
		medObs, medProblem := obs[len(obs)/2], problem[len(problem)/2]
		t.Logf("%s: %d calls: observation median %d, largest %d tokens; problem+json median %d, largest %d; "+
			"the %d calls with one violation: observation median %d",
			name, len(calls), medObs, obs[len(obs)-1], medProblem, problem[len(problem)-1], len(singles), singles[len(singles)/2])
		assert.Less(t, medObs, medProblem*3/4, "the observation is well under the problem+json")
		assert.LessOrEqual(t, medObs, 100)
	}
}
