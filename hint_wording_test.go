package toolerr

import (
	"encoding/json"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// withMembers returns a copy of e carrying exactly the members in m (as far
// as the code lets: a retryable rate_limit code always renders a delay).
func withMembers(e *Error, m Members) *Error {
	c := *e
	c.Field, c.AllowedValues, c.SuggestedValue = "", nil, nil
	c.RetryAfter, c.Errors, c.Details, c.Intent = 0, nil, nil, nil
	c.Violations, c.ExampleRequest = nil, nil
	if m&MemberField != 0 {
		c.Field = "limit"
	}
	if m&MemberAllowedValues != 0 {
		c.AllowedValues = []string{"10", "100"}
	}
	if m&MemberSuggestedValue != 0 {
		c.SuggestedValue = "100"
	}
	if m&MemberRetryAfter != 0 {
		c.RetryAfter = 2 * time.Second
	}
	if m&MemberErrors != 0 {
		c.Errors = []ItemError{{Index: 1, Err: Default().New(CodeNotFound, "item 1 does not exist.")}}
	}
	if m&MemberDetails != 0 {
		c.Details = map[string]any{"first_call_id": "c-1"}
	}
	if m&MemberIntent != 0 {
		c.Intent = &Intent{Operation: "create_order", State: "submitted"}
	}
	if m&MemberViolations != 0 {
		c.Violations = []Violation{{Field: "/limit", Reason: "must be at most 100"}}
	}
	if m&MemberExampleRequest != 0 {
		c.ExampleRequest = map[string]any{"limit": 100}
	}
	return &c
}

// mentions reports whether text names the wire member as a word.
func mentions(text, member string) bool {
	return regexp.MustCompile(`(^|[^a-z_])` + regexp.QuoteMeta(member) + `($|[^a-z_])`).MatchString(text)
}

// renderedTexts renders e as problem+json and returns its hints and
// suggestions, plus the member names present in the body.
func renderedTexts(t *testing.T, e *Error) (texts []string, present map[string]bool) {
	t.Helper()
	var m map[string]any
	require.NoError(t, json.Unmarshal(e.AppendJSON(nil), &m))
	present = map[string]bool{}
	for _, name := range memberNames {
		_, present[name] = m[name]
	}
	hint, _ := m["hint"].(string)
	human, _ := m["human_hint"].(string)
	texts = []string{hint, human}
	sugg, _ := m["suggestions"].([]any)
	for _, s := range sugg {
		texts = append(texts, s.(string))
	}
	return texts, present
}

// TestNoHintPointsAtAnAbsentMember renders every built-in code with every
// combination of the members a hint can point at, and checks that the
// hint, human hint and suggestions name only members the body carries.
func TestNoHintPointsAtAnAbsentMember(t *testing.T) {
	for _, d := range Default().Defs() {
		base := Default().New(d.Code, "")
		for m := Members(0); m < 1<<len(memberNames); m++ {
			e := withMembers(base, m)
			texts, present := renderedTexts(t, e)
			require.NotEmpty(t, texts[0], "%s %v: a hint is always rendered", d.Code, m.MemberNames())
			for name, here := range present {
				if here {
					continue
				}
				for _, text := range texts {
					assert.False(t, mentions(text, name), "%s with %v: %q names absent %s", d.Code, m.MemberNames(), text, name)
				}
			}
		}
	}
}

// TestEveryWordingIsReachable checks each wording is the one chosen for an
// error carrying exactly its members (no earlier wording shadows it) and
// that its hint uses at least one of them.
func TestEveryWordingIsReachable(t *testing.T) {
	n := 0
	for _, d := range Default().Defs() {
		for _, w := range d.Wordings {
			n++
			e := withMembers(Default().New(d.Code, ""), w.When)
			hint, human, sugg := e.RenderedHints()
			assert.Equal(t, w.Hint, hint, "%s %v", d.Code, w.When.MemberNames())
			if w.HumanHint != "" {
				assert.Equal(t, w.HumanHint, human)
			}
			if w.Repair != nil {
				assert.Equal(t, w.Repair, sugg)
			}
			used := false
			for _, name := range w.When.MemberNames() {
				used = used || mentions(w.Hint, name)
			}
			assert.True(t, used, "%s: a wording for %v uses one of them", d.Code, w.When.MemberNames())
		}
	}
	assert.GreaterOrEqual(t, n, 14, "the built-in wordings are all visited")
}

func TestValidationHintFollowsTheMembers(t *testing.T) {
	e := Default().New(CodeValidationFailed, "limit must be at most 100.")
	cases := []struct {
		m            Members
		want, absent []string
	}{
		{0, []string{"detail"}, []string{"field", "allowed_values", "suggested_value"}},
		{MemberField, []string{"field"}, []string{"allowed_values", "suggested_value"}},
		{MemberField | MemberAllowedValues, []string{"field", "allowed_values"}, []string{"suggested_value"}},
		{MemberField | MemberSuggestedValue, []string{"field", "suggested_value"}, []string{"allowed_values"}},
		{MemberField | MemberAllowedValues | MemberSuggestedValue, []string{"field", "allowed_values", "suggested_value"}, nil},
		{MemberAllowedValues, []string{"allowed_values", "detail"}, []string{"field"}},
		{MemberErrors, []string{"errors"}, []string{"field"}},
	}
	for _, c := range cases {
		hint, _, _ := withMembers(e, c.m).RenderedHints()
		for _, w := range c.want {
			assert.True(t, mentions(hint, w), "%v: %q should name %s", c.m.MemberNames(), hint, w)
		}
		for _, a := range c.absent {
			assert.False(t, mentions(hint, a), "%v: %q names %s", c.m.MemberNames(), hint, a)
		}
	}
}

func TestWordingKeepsTextsTheCallerSet(t *testing.T) {
	e := Default().New(CodeValidationFailed, "").WithField("limit").
		WithHint("Use a limit of 100 or less.").WithHumanHint("Too many results were asked for.").
		WithSuggestions("Call again with limit 100.")
	hint, human, sugg := e.RenderedHints()
	assert.Equal(t, "Use a limit of 100 or less.", hint)
	assert.Equal(t, "Too many results were asked for.", human)
	assert.Equal(t, []string{"Call again with limit 100."}, sugg)

	// A parsed error keeps the words it was sent with: they were chosen
	// by the members of the body it came from.
	sent := Default().New(CodeRateLimited, "").WithRetryAfter(3 * time.Second)
	back, err := Parse(sent.AppendJSON(nil))
	require.NoError(t, err)
	wantHint, _, _ := sent.RenderedHints()
	gotHint, _, _ := back.RenderedHints()
	assert.Equal(t, wantHint, gotHint)
	assert.Contains(t, gotHint, "retry_after_ms")
}

func TestWordingsOfARegisteredCode(t *testing.T) {
	r := NewRegistry(Default())
	d := Def{Code: "ORDER_LOCKED", Category: CategoryConflict, Status: 409, Title: "The order is locked",
		Hint: "Read the order's state, then decide again.", HumanHint: "The order is being changed.",
		Wordings: []Wording{{When: MemberDetails, Hint: "Read details.locked_by, then decide again."}}}
	require.NoError(t, r.Register(d))
	d.Wordings[0].Hint = "changed after registration"
	plain, _, _ := r.New("ORDER_LOCKED", "").RenderedHints()
	assert.Equal(t, "Read the order's state, then decide again.", plain)
	detailed, human, _ := r.New("ORDER_LOCKED", "").WithDetails(map[string]any{"locked_by": "u-1"}).RenderedHints()
	assert.Equal(t, "Read details.locked_by, then decide again.", detailed, "a registered Def is a copy")
	assert.Equal(t, "The order is being changed.", human, "an empty HumanHint keeps the Def's")

	for _, bad := range []Wording{
		{When: 0, Hint: "always"},
		{When: 1 << 9, Hint: "no such member"},
		{When: MemberField, Hint: "  "},
		{When: MemberField, Hint: strings.Repeat("x", MaxHintLen+1)},
	} {
		b := d
		b.Code = "ORDER_LOCKED_BAD"
		b.Wordings = []Wording{bad}
		assert.Error(t, NewRegistry(Default()).Register(b), "%+v", bad)
	}
}
