package argcheck

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// The repair-rate goal of issue 13: on the corpus of invalid calls in
// testdata/repair (24 schemas, over 400 calls, each labelled by hand with
// every violated pointer and whether an expert could repair it without the
// user), a scripted agent that applies example_request, or else
// suggested_value at field, gets valid arguments in one step for at least
// 95% of the repairable calls. Every report names exactly the labelled
// pointers. The same agent on hand-written errors is the baseline.

// repairAgent makes the one repair step of the scripted agent: the
// arguments it sends next, and whether it changed anything.
func repairAgent(args any, e *toolerr.Error) (any, bool) {
	if e.ExampleRequest != nil {
		return e.ExampleRequest, true
	}
	if e.SuggestedValue == nil {
		return args, false
	}
	next := deepCopy(args)
	if e.Field == "" {
		return e.SuggestedValue, true
	}
	return next, set(next, e.Field, e.SuggestedValue)
}

// handWritten is the error a handler author writes by hand today: it
// returns at its first failed check, naming the field and what is allowed,
// and suggests a value only where authors usually compute one, a number
// clamped into its range (as the quickstart's limit and Harbor's quantity
// did). It is built from the first violation argcheck finds in pointer
// order, so both agents face the same violations.
func handWritten(e *toolerr.Error) *toolerr.Error {
	vs := slices.Clone(e.Violations)
	slices.SortFunc(vs, func(a, b toolerr.Violation) int { return strings.Compare(a.Field, b.Field) })
	first := vs[0]
	out := toolerr.Default().New(toolerr.CodeValidationFailed, first.Reason).WithField(first.Field)
	if first.AllowedValues != nil {
		out = out.WithAllowedValues(first.AllowedValues)
	}
	if bounds, ok := first.AllowedValues.(map[string]any); ok && first.SuggestedValue != nil {
		if _, lo := bounds["minimum"]; lo {
			out = out.WithSuggestedValue(first.SuggestedValue)
		} else if _, hi := bounds["maximum"]; hi {
			out = out.WithSuggestedValue(first.SuggestedValue)
		}
	}
	return out
}

// corpusSchemas compiles the schemas of the corpus in dir with Compile.
func corpusSchemas(t *testing.T, dir string) map[string]*Schema {
	t.Helper()
	paths, err := filepath.Glob(filepath.Join(dir, "schemas", "*.json"))
	require.NoError(t, err)
	out := make(map[string]*Schema, len(paths))
	for _, p := range paths {
		raw, err := os.ReadFile(p)
		require.NoError(t, err)
		s, err := Compile(raw)
		require.NoError(t, err, p)
		out[strings.TrimSuffix(filepath.Base(p), ".json")] = s
	}
	return out
}

// repairTally counts one agent's outcomes over the corpus.
type repairTally struct {
	repairable, repaired   int // labelled repairable; of those, valid after one step
	unrepairable, proposed int // labelled not repairable; of those, given a full repair anyway
}

func (r repairTally) rate() float64 { return float64(r.repaired) / float64(r.repairable) }

// TestRepairRate measures the scripted agent on the corpus the repair
// rules were tuned on and on a held-out corpus, built afterwards by
// someone who did not read the rules, over other schemas.
func TestRepairRate(t *testing.T) {
	for _, corpus := range []struct{ name, dir string }{{"tuned", corpusDir}, {"held-out", heldoutCorpusDir}} {
		t.Run(corpus.name, func(t *testing.T) {
			withArgcheck, byHand, misses, eager := measureRepairs(t, corpus.dir)
			t.Logf("%s: argcheck: %d of %d repairable calls valid after one step (%.1f%%); %d of %d unrepairable calls given a full repair anyway",
				corpus.name, withArgcheck.repaired, withArgcheck.repairable, 100*withArgcheck.rate(), withArgcheck.proposed, withArgcheck.unrepairable)
			t.Logf("%s: hand-written: %d of %d repairable calls valid after one step (%.1f%%)",
				corpus.name, byHand.repaired, byHand.repairable, 100*byHand.rate())
			t.Logf("%s: not repaired: %s", corpus.name, strings.Join(misses, "; "))
			t.Logf("%s: repaired although an expert would ask: %s", corpus.name, strings.Join(eager, "; "))
			assert.GreaterOrEqual(t, withArgcheck.rate(), 0.95, "the repair-rate goal")
			assert.Greater(t, withArgcheck.rate(), byHand.rate())
		})
	}
}

// measureRepairs runs both agents over the corpus in dir, checking every
// report's pointers and example_request on the way.
func measureRepairs(t *testing.T, dir string) (withArgcheck, byHand repairTally, misses, eager []string) {
	schemas := corpusSchemas(t, dir)
	for _, c := range readCorpusCalls(t, dir, "calls.jsonl") {
		s := schemas[c.Schema]
		require.NotNil(t, s, c.ID)
		args := corpusArguments(t, c)
		err := s.Check(args)
		require.Error(t, err, c.ID)
		e, ok := toolerr.From(err)
		require.True(t, ok, c.ID)

		var fields []string
		for _, v := range e.Violations {
			fields = append(fields, v.Field)
		}
		slices.Sort(fields)
		fields = slices.Compact(fields) // one field may break several keywords
		assert.Equal(t, c.Violations, fields, "%s: the violations name exactly the labelled pointers (%s)", c.ID, c.Note)
		assert.Contains(t, c.Violations, e.Field, c.ID)
		if e.ExampleRequest != nil {
			assert.NoError(t, s.Check(e.ExampleRequest), "%s: example_request validates", c.ID)
		}

		for _, agent := range []struct {
			tally *repairTally
			err   *toolerr.Error
		}{{&withArgcheck, e}, {&byHand, handWritten(e)}} {
			next, changed := repairAgent(args, agent.err)
			valid := changed && s.Check(next) == nil
			mine := agent.tally == &withArgcheck
			switch {
			case *c.Repairable:
				agent.tally.repairable++
				if valid {
					agent.tally.repaired++
				} else if mine {
					misses = append(misses, fmt.Sprintf("%s (%s)", c.ID, c.Note))
				}
			default:
				agent.tally.unrepairable++
				if valid {
					agent.tally.proposed++
					if mine {
						eager = append(eager, fmt.Sprintf("%s (%s)", c.ID, c.Note))
					}
				}
			}
		}
	}
	return withArgcheck, byHand, misses, eager
}

// TestEverySuggestionRepairsItsField: applying one violation's
// suggested_value alone leaves nothing wrong at that field.
func TestEverySuggestionRepairsItsField(t *testing.T) {
	schemas := corpusSchemas(t, corpusDir)
	for _, c := range readCorpusCalls(t, corpusDir, "calls.jsonl") {
		s := schemas[c.Schema]
		args := corpusArguments(t, c)
		e, _ := toolerr.From(s.Check(args))
		require.NotNil(t, e, c.ID)
		for _, v := range e.Violations {
			if v.SuggestedValue == nil || strings.Contains(v.Reason, "not a property") {
				continue
			}
			next := deepCopy(args)
			if v.Field == "" {
				next = v.SuggestedValue
			} else {
				require.True(t, set(next, v.Field, v.SuggestedValue), "%s: %s", c.ID, v.Field)
			}
			assert.False(t, s.failingFields(s.compiled.Validate(next), next)[v.Field], "%s: %s still fails with %v", c.ID, v.Field, v.SuggestedValue)
		}
	}
}

// TestValidCorpusCallsPass: the corpus's valid calls produce no error.
func TestValidCorpusCallsPass(t *testing.T) {
	schemas := corpusSchemas(t, corpusDir)
	for _, c := range readCorpusCalls(t, corpusDir, "valid.jsonl") {
		raw, err := json.Marshal(corpusArguments(t, c))
		require.NoError(t, err)
		assert.NoError(t, schemas[c.Schema].CheckJSON(raw), c.ID)
	}
}
