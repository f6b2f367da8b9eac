package toolerr

import (
	"encoding/json"
	"log/slog"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// taggedKinds carries a category and a severity the way a caller's own
// structs would, so the text marshalers are exercised through encoding/json.
type taggedKinds struct {
	Category Category `json:"category"`
	Severity Severity `json:"severity"`
}

func TestCategoryJSONRoundTrip(t *testing.T) {
	for _, c := range Categories() {
		t.Run(string(c), func(t *testing.T) {
			b, err := json.Marshal(taggedKinds{Category: c, Severity: SeverityError})
			require.NoError(t, err)
			assert.JSONEq(t, `{"category":"`+string(c)+`","severity":"error"}`, string(b))

			var back taggedKinds
			require.NoError(t, json.Unmarshal(b, &back))
			assert.Equal(t, c, back.Category)
		})
	}
}

func TestSeverityJSONRoundTrip(t *testing.T) {
	want := []Severity{"info", "warning", "error", "fatal"}
	require.Equal(t, want, Severities(), "mildest first")
	for _, s := range Severities() {
		t.Run(string(s), func(t *testing.T) {
			require.True(t, s.Valid())
			b, err := json.Marshal(taggedKinds{Category: CategoryInternal, Severity: s})
			require.NoError(t, err)
			assert.JSONEq(t, `{"category":"internal","severity":"`+string(s)+`"}`, string(b))

			var back taggedKinds
			require.NoError(t, json.Unmarshal(b, &back))
			assert.Equal(t, s, back.Severity)
		})
	}
}

func TestCategoryAndSeverityRejectUnknown(t *testing.T) {
	for _, bad := range []string{"", "Validation", "oops", "VALIDATION", " validation", "validation ", "Error", "FATAL"} {
		t.Run("category "+bad, func(t *testing.T) {
			assert.False(t, Category(bad).Valid())
			_, err := json.Marshal(taggedKinds{Category: Category(bad), Severity: SeverityError})
			require.Error(t, err, "encoding an invalid category must fail")
			assert.Contains(t, err.Error(), "invalid category")

			var got taggedKinds
			err = json.Unmarshal([]byte(`{"category":`+quoteJSON(t, bad)+`,"severity":"error"}`), &got)
			require.Error(t, err, "decoding an unknown category must fail")
			assert.Contains(t, err.Error(), "unknown category")
			assert.Equal(t, Category(""), got.Category, "nothing is stored on failure")
		})
		t.Run("severity "+bad, func(t *testing.T) {
			assert.False(t, Severity(bad).Valid())
			_, err := json.Marshal(taggedKinds{Category: CategoryInternal, Severity: Severity(bad)})
			require.Error(t, err, "encoding an invalid severity must fail")
			assert.Contains(t, err.Error(), "invalid severity")

			var got taggedKinds
			err = json.Unmarshal([]byte(`{"category":"internal","severity":`+quoteJSON(t, bad)+`}`), &got)
			require.Error(t, err, "decoding an unknown severity must fail")
			assert.Contains(t, err.Error(), "unknown severity")
			assert.Equal(t, Severity(""), got.Severity)
		})
	}
}

func TestCategoryAndSeverityRejectNonStrings(t *testing.T) {
	for _, bad := range []string{`1`, `true`, `{}`, `["validation"]`} {
		var v taggedKinds
		assert.Error(t, json.Unmarshal([]byte(`{"category":`+bad+`}`), &v), "category %s", bad)
		assert.Error(t, json.Unmarshal([]byte(`{"severity":`+bad+`}`), &v), "severity %s", bad)
	}
	// A bare value decodes the same way as a struct member.
	var c Category
	require.NoError(t, json.Unmarshal([]byte(`"rate_limit"`), &c))
	assert.Equal(t, CategoryRateLimit, c)
	var s Severity
	assert.Error(t, json.Unmarshal([]byte(`"critical"`), &s))
	_, err := json.Marshal(Severity("critical"))
	assert.Error(t, err)
}

func TestCategoryUnmarshalTruncatesHugeNames(t *testing.T) {
	long := make([]byte, 1000)
	for i := range long {
		long[i] = 'x'
	}
	var c Category
	err := c.UnmarshalText(long)
	require.Error(t, err)
	assert.Less(t, len(err.Error()), 200, "untrusted text is bounded in the message: %v", err)
	assert.Contains(t, err.Error(), "…")

	// The cut falls at a rune boundary: '€' is three bytes, and the
	// 64-byte cap falls inside the 22nd.
	err = c.UnmarshalText([]byte(strings.Repeat("€", 100)))
	require.Error(t, err)
	assert.True(t, utf8.ValidString(err.Error()), "no rune split: %q", err)
	assert.Contains(t, err.Error(), `"`+strings.Repeat("€", 21)+`…"`)
}

func TestCategoryCanRetry(t *testing.T) {
	retryable := map[Category]bool{CategoryRateLimit: true, CategoryTransient: true, CategoryInternal: true}
	for _, c := range Categories() {
		assert.Equal(t, retryable[c], c.CanRetry(), "%s", c)
	}
	assert.False(t, Category("").CanRetry())
	assert.False(t, Category("oops").CanRetry())
}

func TestCategoriesAreTheTaxonomy(t *testing.T) {
	cats := Categories()
	require.Len(t, cats, 12)
	seen := map[Category]bool{}
	for _, c := range cats {
		assert.True(t, c.Valid(), "%s", c)
		assert.False(t, seen[c], "duplicate %s", c)
		seen[c] = true
	}
	want := []Category{"validation", "not_found", "auth", "permission", "precondition", "conflict",
		"rate_limit", "transient", "upstream", "policy", "internal", "cancelled"}
	assert.Equal(t, want, cats, "taxonomy order")
}

func quoteJSON(t *testing.T, s string) string {
	t.Helper()
	b, err := json.Marshal(s)
	require.NoError(t, err)
	return string(b)
}

func TestCategoryLogLevel(t *testing.T) {
	want := map[Category]slog.Level{
		CategoryInternal: slog.LevelError, CategoryUpstream: slog.LevelError,
		CategoryTransient: slog.LevelWarn, CategoryRateLimit: slog.LevelWarn,
		CategoryPermission: slog.LevelWarn, CategoryPolicy: slog.LevelWarn,
	}
	for _, c := range Categories() {
		level, ok := want[c]
		if !ok {
			level = slog.LevelInfo
		}
		assert.Equal(t, level, c.LogLevel(), "%s", c)
	}
}
