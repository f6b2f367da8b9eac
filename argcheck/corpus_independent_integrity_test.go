package argcheck

// The independent corpus under testdata/repair_independent was written from
// the labelling rules in its RULES.md alone, by an author who did not read
// argcheck's repair code (issue 26). Besides the labels of the other corpora,
// each repairable call carries "repaired": the whole argument object a
// careful person would send after repairing it, so that a repair can be
// judged by what it sends, not only by whether it validates.

import (
	"bytes"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/require"
)

const independentCorpusDir = "testdata/repair_independent"

// The classes a note starts with ("class: why"), as defined in RULES.md.
var (
	independentRepairClasses = []string{
		"case-fix", "coercion", "misspelling", "abbreviation", "separator-swap",
		"rename", "dedupe", "declared-cap", "branch", "rounds",
	}
	independentNeedsUserClasses = []string{
		"separator-loss", "intent-removal", "unit-guess", "tie", "invented", "other",
	}
)

// TestIndependentCorpusIntegrity runs the integrity checks of the first
// corpus on the independent one, then checks its "repaired" field and the
// class named by every note.
func TestIndependentCorpusIntegrity(t *testing.T) {
	checkCorpusIntegrity(t, independentCorpusDir, corpusSize{
		schemas: 17, invalid: 300, invalidPer: 17, validPer: 2,
		minRepairable: 0.45, maxRepairable: 0.6,
	})

	schemas := loadCorpusSchemas(t, independentCorpusDir)
	for _, c := range readCorpusCalls(t, independentCorpusDir, "valid.jsonl") {
		require.Nil(t, c.Repaired, "%s: a valid call has no repaired arguments", c.ID)
	}
	perClass := map[string]int{}
	for _, c := range readCorpusCalls(t, independentCorpusDir, "calls.jsonl") {
		class := noteClass(c.Note)
		if !*c.Repairable {
			require.Contains(t, independentNeedsUserClasses, class, "%s: note must start with a needs-user class", c.ID)
			require.Nil(t, c.Repaired, "%s: a needs-user call has no repaired arguments", c.ID)
			perClass[class]++
			continue
		}
		require.Contains(t, independentRepairClasses, class, "%s: note must start with a repair class", c.ID)
		require.NotNil(t, c.Repaired, "%s: a repairable call needs repaired arguments", c.ID)
		repaired, err := jsonschema.UnmarshalJSON(bytes.NewReader(c.Repaired))
		require.NoError(t, err, "%s: repaired", c.ID)
		require.NoError(t, schemas[c.Schema].Validate(repaired), "%s: repaired arguments do not validate", c.ID)
		requireKeptOutsideViolations(t, c.ID, corpusArguments(t, c), repaired, c.Violations)
		perClass[class]++
	}
	// Every class of RULES.md is exercised, so that a measurement covers
	// both sides of the line.
	for _, class := range slices.Concat(independentRepairClasses, independentNeedsUserClasses) {
		require.Positive(t, perClass[class], "no call of class %s", class)
	}
}

// noteClass returns the class a note starts with, the text before ": ".
func noteClass(note string) string {
	class, _, ok := strings.Cut(note, ": ")
	if !ok {
		return ""
	}
	return class
}

// requireKeptOutsideViolations checks that a repair left alone everything the
// user gave that was valid: every value of args not at or under a violation
// location is in repaired at the same place. An array item may move within its
// array (a dedupe shifts the items after the one it drops) but must stay in it.
func requireKeptOutsideViolations(t *testing.T, id string, args, repaired any, violations []string) {
	t.Helper()
	inViolation := func(ptr string) bool {
		for _, v := range violations {
			if ptr == v || strings.HasPrefix(ptr, v+"/") || v == "" {
				return true
			}
		}
		return false
	}
	holdsViolation := func(ptr string) bool {
		for _, v := range violations {
			if strings.HasPrefix(v, ptr+"/") {
				return true
			}
		}
		return false
	}
	var walk func(ptr string, a, r any)
	walk = func(ptr string, a, r any) {
		switch a := a.(type) {
		case map[string]any:
			robj, ok := r.(map[string]any)
			require.True(t, ok, "%s: repaired %q is no longer an object", id, ptr)
			for k, v := range a {
				p := ptr + "/" + pointerEscaper.Replace(k)
				if inViolation(p) {
					continue
				}
				rv, ok := robj[k]
				require.True(t, ok, "%s: the repair dropped %s, which was valid", id, p)
				walk(p, v, rv)
			}
		case []any:
			rarr, ok := r.([]any)
			require.True(t, ok, "%s: repaired %q is no longer an array", id, ptr)
			for i, v := range a {
				p := ptr + "/" + strconv.Itoa(i)
				if inViolation(p) {
					continue
				}
				if holdsViolation(p) {
					require.Less(t, i, len(rarr), "%s: the repair dropped %s", id, p)
					walk(p, v, rarr[i])
					continue
				}
				if i < len(rarr) && reflect.DeepEqual(v, rarr[i]) {
					continue
				}
				found := false
				for _, rv := range rarr {
					found = found || reflect.DeepEqual(v, rv)
				}
				require.True(t, found, "%s: the repair dropped or changed %s, which was valid", id, p)
			}
		default:
			require.Equal(t, a, r, "%s: the repair changed %s, which was valid", id, ptr)
		}
	}
	walk("", args, repaired)
}
