package toolresult

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

var updateSeeds = flag.Bool("update-seeds", false, "rewrite the seed corpus of FuzzParseObservation")

// seedDir is the seed corpus of FuzzParseObservation.
const seedDir = "testdata/fuzz/FuzzParseObservation"

// fuzzSeeds returns the seed corpus by name: every built-in code's rich
// error (see richError) as a plain and a Markdown observation, and hostile
// inputs.
func fuzzSeeds() map[string]string {
	seeds := map[string]string{}
	for _, d := range toolerr.Default().Defs() {
		e := richError(d).WithRequestID("req-" + strings.ToLower(d.Code))
		seeds["plain_"+d.Code] = string(e.AppendObservation(nil, toolerr.ObservationOptions{}))
		seeds["markdown_"+d.Code] = string(e.AppendObservation(nil, toolerr.ObservationOptions{Markdown: true, HumanHint: true}))
	}
	deep := strings.Repeat("[", 4000) + strings.Repeat("]", 4000)
	for name, text := range map[string]string{
		"fake_code_line_then_secret": "INTERNAL_ERROR (internal): ok\nretryable: false\npassword=" + secret,
		"secret_in_detail":           "NOT_FOUND (not_found): key " + secret + " at db.internal:5432\nretryable: false",
		"secret_in_request_id":       "NOT_FOUND (not_found)\nretryable: false\nrequest_id: " + secret,
		"secret_in_markdown_span":    "**NOT_FOUND** (not_found)\n- retryable: false\n- field: `Authorization: Bearer " + secret + "`",
		"deep_json":                  "VALIDATION_FAILED (validation)\nretryable: false\nexample_request: " + deep,
		"deep_json_over_limit":       "VALIDATION_FAILED (validation)\nretryable: false\nexample_request: " + strings.Repeat("[", 5000) + strings.Repeat("]", 5000),
		"huge_line":                  "NOT_FOUND (not_found)\nretryable: false\nhint: " + strings.Repeat("word ", 14000),
		"many_inline_separators":     "VALIDATION_FAILED (validation)\nretryable: false\nviolation: /a b" + strings.Repeat(", suggested_value: 1", 200),
		"backtick_storm":             "**VALIDATION_FAILED** (validation)\n- retryable: false\n- suggested_value: " + strings.Repeat("`", 3000) + " 1 " + strings.Repeat("`", 2999),
		"retryable_in_validation":    "VALIDATION_FAILED (validation)\nretryable: true, retry_after_ms: 9007199254740993",
	} {
		seeds["hostile_"+name] = text
	}
	return seeds
}

// TestFuzzSeedsAreCurrent checks that the committed seed corpus is the one
// fuzzSeeds builds (go test -run TestFuzzSeedsAreCurrent -update-seeds
// rewrites it), so that it follows the renderer.
func TestFuzzSeedsAreCurrent(t *testing.T) {
	seeds := fuzzSeeds()
	if *updateSeeds {
		require.NoError(t, os.RemoveAll(seedDir))
		require.NoError(t, os.MkdirAll(seedDir, 0o755))
		for name, text := range seeds {
			body := fmt.Sprintf("go test fuzz v1\nstring(%s)\n", strconv.Quote(text))
			require.NoError(t, os.WriteFile(filepath.Join(seedDir, name), []byte(body), 0o644))
		}
	}
	entries, err := os.ReadDir(seedDir)
	require.NoError(t, err)
	assert.Len(t, entries, len(seeds))
	for name, text := range seeds {
		b, err := os.ReadFile(filepath.Join(seedDir, name))
		if !assert.NoError(t, err, name) {
			continue
		}
		assert.Equal(t, fmt.Sprintf("go test fuzz v1\nstring(%s)\n", strconv.Quote(text)), string(b), name)
	}
}

// FuzzParseObservation: ParseObservation never panics, and whatever it
// returns is an error that passes the contract (Validate, in both JSON
// renderings) and the sanitizer (cleaning it again changes nothing), whose
// observation reads back as the same observation.
func FuzzParseObservation(f *testing.F) {
	// The corpus under testdata is added by go test; these few keep the
	// target useful when it is missing.
	f.Add("NOT_FOUND (not_found): gone\nretryable: false\nrequest_id: req-1")
	f.Add("**RATE_LIMITED** (rate_limit)\n- retryable: true, retry_after_ms: 1000, max_attempts: 3")
	f.Fuzz(func(t *testing.T, text string) {
		e, ok := ParseObservation(text)
		if !ok {
			if e != nil {
				t.Fatal("an error without ok")
			}
			return
		}
		if e == nil {
			t.Fatal("ok without an error")
		}
		if again := e.MapText(cleaner().CleanText); string(again.AppendJSON(nil)) != string(e.AppendJSON(nil)) {
			t.Fatalf("not sanitized: cleaning it again changed it\n%q\n%q", e.Observation(), again.Observation())
		}
		withID := e
		if !toolerr.ValidRequestID(e.RequestID) {
			withID = e.WithRequestID("req-1")
		}
		if err := toolerr.Validate(withID.AppendJSON(nil)); err != nil {
			t.Fatalf("breaks the contract: %v\n%s", err, withID.AppendJSON(nil))
		}
		if err := toolerr.Validate(withID.AppendEnvelope(nil)); err != nil {
			t.Fatalf("envelope breaks the contract: %v", err)
		}
		for _, v := range e.Violations {
			if strings.Contains(v.Field, " ") {
				return // documented: in plain text such a pointer ends at its space
			}
		}
		obs := e.Observation()
		back, ok := ParseObservation(obs)
		if !ok {
			t.Fatalf("its observation does not read back:\n%s", obs)
		}
		if again := back.Observation(); again != obs {
			t.Fatalf("its observation reads back as another:\n%s\n---\n%s", obs, again)
		}
	})
}
