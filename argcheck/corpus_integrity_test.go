package argcheck

// This file checks the repair corpus under testdata/repair, not argcheck
// itself: the corpus is what argcheck's validation and repairs are measured
// against, so its labels have to be exactly what the JSON Schema validator
// reports. The corpus has three parts:
//
//   - schemas/<name>.json: tool input schemas (draft 2020-12);
//   - calls.jsonl: invalid tool calls, each with the sorted set of JSON
//     pointers at which its arguments violate the schema, whether an expert
//     could repair every violation without asking the user, and a note;
//   - valid.jsonl: calls that satisfy their schema.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
	"github.com/stretchr/testify/require"
)

const (
	corpusDir = "testdata/repair"
	// corpusBaseURL is where the schemas are registered with the compiler;
	// nothing is fetched from it.
	corpusBaseURL = "https://toolerr.test/argcheck/repair/schemas/"
	draft2020URL  = "https://json-schema.org/draft/2020-12/schema"
)

// corpusCall is one line of calls.jsonl or valid.jsonl. The labels are
// absent from valid.jsonl.
type corpusCall struct {
	ID         string          `json:"id"`
	Schema     string          `json:"schema"`
	Arguments  json.RawMessage `json:"arguments"`
	Violations []string        `json:"violations"`
	Repairable *bool           `json:"repairable"`
	Note       string          `json:"note"`
	// Repaired is, in the independent corpus only, the whole argument
	// object a careful person would send after repairing a repairable call.
	Repaired json.RawMessage `json:"repaired,omitempty"`
}

// loadCorpusSchemas compiles every schemas/*.json under dir with format
// assertions on, keyed by file name without its extension.
func loadCorpusSchemas(t *testing.T, dir string) map[string]*jsonschema.Schema {
	t.Helper()
	files, err := filepath.Glob(filepath.Join(dir, "schemas", "*.json"))
	require.NoError(t, err)
	c := jsonschema.NewCompiler()
	c.DefaultDraft(jsonschema.Draft2020)
	c.AssertFormat()
	urls := map[string]string{}
	for _, f := range files {
		name := strings.TrimSuffix(filepath.Base(f), ".json")
		b, err := os.ReadFile(f)
		require.NoError(t, err)
		doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(b))
		require.NoError(t, err, "%s", f)
		obj, ok := doc.(map[string]any)
		require.True(t, ok, "%s: not a JSON object", f)
		require.Equal(t, draft2020URL, obj["$schema"], "%s: $schema", f)
		require.Equal(t, "object", obj["type"], "%s: root type", f)
		urls[name] = corpusBaseURL + name + ".json"
		require.NoError(t, c.AddResource(urls[name], doc), "%s", f)
	}
	schemas := map[string]*jsonschema.Schema{}
	for name, url := range urls {
		sch, err := c.Compile(url)
		require.NoError(t, err, "schema %s does not compile", name)
		schemas[name] = sch
	}
	return schemas
}

// readCorpusCalls decodes dir/name, one JSON object a line, rejecting
// unknown fields.
func readCorpusCalls(t *testing.T, dir, name string) []corpusCall {
	t.Helper()
	f, err := os.Open(filepath.Join(dir, name))
	require.NoError(t, err)
	defer f.Close()
	var calls []corpusCall
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64*1024), 1<<20)
	for n := 1; sc.Scan(); n++ {
		dec := json.NewDecoder(bytes.NewReader(sc.Bytes()))
		dec.DisallowUnknownFields()
		var c corpusCall
		require.NoError(t, dec.Decode(&c), "%s:%d", name, n)
		require.NotEmpty(t, c.ID, "%s:%d: id", name, n)
		require.NotEmpty(t, c.Schema, "%s:%d: schema", name, n)
		calls = append(calls, c)
	}
	require.NoError(t, sc.Err())
	return calls
}

// corpusArguments decodes a call's arguments as the validator expects them,
// with numbers as json.Number.
func corpusArguments(t *testing.T, c corpusCall) any {
	t.Helper()
	v, err := jsonschema.UnmarshalJSON(bytes.NewReader(c.Arguments))
	require.NoError(t, err, "%s: arguments", c.ID)
	return v
}

var pointerEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// jsonPointer joins reference tokens into an RFC 6901 pointer.
func jsonPointer(tokens []string) string {
	var b strings.Builder
	for _, tok := range tokens {
		b.WriteByte('/')
		b.WriteString(pointerEscaper.Replace(tok))
	}
	return b.String()
}

// leafLocations adds the instance location of every leaf of the error tree.
// A missing required property and a property rejected by
// additionalProperties are located at that property, not at its object.
func leafLocations(e *jsonschema.ValidationError, into map[string]bool) {
	if len(e.Causes) > 0 {
		for _, cause := range e.Causes {
			leafLocations(cause, into)
		}
		return
	}
	switch k := e.ErrorKind.(type) {
	case *kind.Required:
		for _, p := range k.Missing {
			into[jsonPointer(append(slices.Clone(e.InstanceLocation), p))] = true
		}
	case *kind.AdditionalProperties:
		for _, p := range k.Properties {
			into[jsonPointer(append(slices.Clone(e.InstanceLocation), p))] = true
		}
	default:
		into[jsonPointer(e.InstanceLocation)] = true
	}
}

// corpusSize is how large and balanced a corpus must be to measure with.
type corpusSize struct {
	schemas       int // schema files at least
	invalid       int // invalid calls at least
	invalidPer    int // invalid calls per schema at least
	validPer      int // valid calls per schema at least
	minRepairable float64
	maxRepairable float64 // bounds on the fraction of invalid calls labelled repairable
}

// TestRepairCorpusIntegrity checks the corpus argcheck was tuned on.
func TestRepairCorpusIntegrity(t *testing.T) {
	checkCorpusIntegrity(t, corpusDir, corpusSize{
		schemas: 20, invalid: 200, invalidPer: 6, validPer: 2,
		minRepairable: 0.4, maxRepairable: 0.8, // 0.4 since the rule of issue 26 (no clamp, cut or rounding)
	})
}

// checkCorpusIntegrity checks that every schema under dir compiles, every
// valid call validates, and every invalid call fails at exactly the locations
// it lists, and that the corpus is at least as large and balanced as size.
func checkCorpusIntegrity(t *testing.T, dir string, size corpusSize) {
	t.Helper()
	schemas := loadCorpusSchemas(t, dir)
	require.GreaterOrEqual(t, len(schemas), size.schemas, "schemas")

	ids := map[string]bool{}
	checkID := func(c corpusCall) {
		require.False(t, ids[c.ID], "duplicate id %s", c.ID)
		ids[c.ID] = true
		require.Contains(t, schemas, c.Schema, "%s: unknown schema", c.ID)
	}

	validPerSchema := map[string]int{}
	for _, c := range readCorpusCalls(t, dir, "valid.jsonl") {
		checkID(c)
		require.Nil(t, c.Violations, "%s: a valid call has no violations", c.ID)
		require.Nil(t, c.Repairable, "%s: a valid call has no repairable label", c.ID)
		err := schemas[c.Schema].Validate(corpusArguments(t, c))
		require.NoError(t, err, "%s: valid call does not validate", c.ID)
		validPerSchema[c.Schema]++
	}

	invalid := readCorpusCalls(t, dir, "calls.jsonl")
	invalidPerSchema := map[string]int{}
	repairable := 0
	for _, c := range invalid {
		checkID(c)
		require.NotNil(t, c.Repairable, "%s: repairable", c.ID)
		require.NotEmpty(t, c.Note, "%s: note", c.ID)
		require.NotEmpty(t, c.Violations, "%s: violations", c.ID)
		require.True(t, slices.IsSorted(c.Violations), "%s: violations not sorted", c.ID)
		require.Len(t, slices.Compact(slices.Clone(c.Violations)), len(c.Violations),
			"%s: duplicate violation", c.ID)

		err := schemas[c.Schema].Validate(corpusArguments(t, c))
		require.Error(t, err, "%s: invalid call validates", c.ID)
		var verr *jsonschema.ValidationError
		require.ErrorAs(t, err, &verr, "%s", c.ID)
		locs := map[string]bool{}
		leafLocations(verr, locs)
		got := make([]string, 0, len(locs))
		for l := range locs {
			got = append(got, l)
		}
		slices.Sort(got)
		require.Equal(t, c.Violations, got, "%s: violations\n%v", c.ID, err)

		invalidPerSchema[c.Schema]++
		if *c.Repairable {
			repairable++
		}
	}

	require.GreaterOrEqual(t, len(invalid), size.invalid, "invalid calls")
	for name := range schemas {
		require.GreaterOrEqual(t, invalidPerSchema[name], size.invalidPer, "invalid calls for %s", name)
		require.GreaterOrEqual(t, validPerSchema[name], size.validPer, "valid calls for %s", name)
	}
	frac := float64(repairable) / float64(len(invalid))
	require.True(t, frac >= size.minRepairable && frac <= size.maxRepairable, "repairable fraction %.3f (%d of %d)",
		frac, repairable, len(invalid))
}
