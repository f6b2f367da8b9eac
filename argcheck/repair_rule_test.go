package argcheck

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/internal/docpage"
)

// ruleSchema holds one property for each side of the repair rule of
// docs/validation.md, "What counts as a repair".
const ruleSchema = `{
  "type": "object", "additionalProperties": false,
  "properties": {
    "mode": {"enum": ["start", "sort", "production", "staging"]},
    "color": {"enum": ["green", "grey", "blue"]},
    "term": {"enum": ["fall_2026", "spring_2027"]},
    "locale": {"type": "string", "pattern": "^[a-z]{2}-[A-Z]{2}$"},
    "column": {"type": "string", "pattern": "^[a-z][a-z0-9_]*$"},
    "ticket": {"type": "string", "pattern": "^[A-Z]+-[0-9]+$"},
    "employee": {"type": "string", "pattern": "^EMP-[0-9]{5}$"},
    "username": {"type": "string", "pattern": "^[a-z0-9-]+$"},
    "label": {"type": "string", "pattern": "^[a-z]+$"},
    "host": {"type": "string", "pattern": "^[a-z0-9]+([.-][a-z0-9]+)*$"},
    "price_cents": {"type": "integer"},
    "day": {"type": "string", "format": "date"},
    "description": {"type": "string"},
    "children": {"type": "integer"},
    "per_page": {"type": "integer", "maximum": 100, "description": "Values above 100 are capped to 100."},
    "tickets": {"type": "integer", "maximum": 8},
    "amount": {"type": "number", "multipleOf": 0.01},
    "tags": {"type": "array", "uniqueItems": true, "items": {"enum": ["read", "write"]}},
    "seats": {"type": "array", "uniqueItems": true, "items": {"type": "string"}},
    "quantity": {"type": "integer"},
    "note": {"type": "string", "maxLength": 5}
  }
}`

// TestRepairRule: each example of the table of docs/validation.md, on its
// side of the line, which the page must still show there. A repaired call is repaired into exactly the arguments given; an
// asked one gets no suggestion at all and a hint that says to ask.
func TestRepairRule(t *testing.T) {
	docpage.Says(t, "../docs/validation.md",
		"## What counts as a repair",
		"| `\"Shipped\"`, `\"Next-Day\"`, `\"shiped\"`, `\"prod\"` for an enum",
		"| `\"fr_CA\"` → `\"fr-CA\"`, `\"Order Date\"` → `\"order_date\"`, `\"INC 4521\"` → `\"INC-4521\"`, `\"EMP00412\"` → `\"EMP-00412\"`: separators and case changed, every letter and digit kept |",
		"| `\"strt\"` with `start` and `sort` allowed, `\"gren\"` with `green` and `grey` (a tie); `\"fall_2025\"` for `fall_2026` (a digit is not a typo) |",
		"`\"mary.jones\"` → `\"maryjones\"`, `\"high priority\"` → `\"highpriority\"`",
		"`\"mail server\"` for a DNS name",
		"`\"March 14, 2026\"` as a `date`",
		"| `\"12.50\"` for `price_cents` (dollars or cents?), `\"03/04/2026\"` (which order?), a date-time without a zone, `\"2026-06-12T08:00\"` for a `date` (the time is dropped) |",
		"`desc`",
		"| `infants` where the tool takes `children`, `offset` where it pages by `cursor`",
		"| a number above a maximum the description says the server caps (`\"Values above 100 are capped to 100\"`) |",
		"12 tickets are not 8, and 19.999 is not 20.00 |",
		"| `[\"Read\", \"read\"]` under `uniqueItems`: the case fixed, then the copy dropped | `[\"F12\", \"F12\"]` with `\"quantity\": 2`: the second seat is missing, not repeated |",
		"| a text over `maxLength` (never cut)")
	s := mustCompile(t, ruleSchema)
	repaired := []struct{ args, want string }{
		{`{"mode":"prod"}`, `{"mode":"production"}`},
		{`{"locale":"fr_CA"}`, `{"locale":"fr-CA"}`},
		{`{"locale":"FR-ca"}`, `{"locale":"fr-CA"}`},
		{`{"column":"Order Date"}`, `{"column":"order_date"}`},
		{`{"ticket":"INC 4521"}`, `{"ticket":"INC-4521"}`},
		{`{"employee":"EMP00412"}`, `{"employee":"EMP-00412"}`},
		{`{"desc":"blue"}`, `{"description":"blue"}`},
		{`{"kids":2}`, `{"children":2}`},
		{`{"per_page":500}`, `{"per_page":100}`},
		{`{"per_page":"500"}`, `{"per_page":100}`},
		{`{"tags":["Read","read"]}`, `{"tags":["read"]}`},
		{`{"seats":["F12","F12","F13"],"quantity":2}`, `{"seats":["F12","F13"],"quantity":2}`},
		{`{"day":"March 14, 2026"}`, `{"day":"2026-03-14"}`},
	}
	for _, tt := range repaired {
		e := checkErr(t, s, tt.args)
		args, err := decodeArguments([]byte(tt.args))
		require.NoError(t, err)
		next, changed := repairAgent(args, e)
		require.True(t, changed, "%s: repaired", tt.args)
		got, _ := json.Marshal(next)
		assert.JSONEq(t, tt.want, string(got), tt.args)
	}

	asked := []struct{ args, hint string }{
		{`{"mode":"strt"}`, "Ask the user which mode applies: start, sort, production or staging"},
		{`{"color":"gren"}`, "Ask the user which color applies: green, grey or blue"},
		{`{"term":"fall_2025"}`, "Ask the user which term applies: fall_2026 or spring_2027"},
		{`{"username":"mary.jones"}`, "ask the user for username"},
		{`{"username":"octo cat"}`, "ask the user for username"},
		{`{"label":"high priority"}`, "ask the user for label"},
		{`{"host":"mail server"}`, "ask the user for host"},
		{`{"price_cents":"12.50"}`, "ask the user for price_cents as an integer"},
		{`{"day":"03/04/2026"}`, "ask the user for day as a date"},
		{`{"day":"2026-06-12T08:00:00Z"}`, "ask the user for day as a date"},
		{`{"infants":1}`, "Ask the user where infants belongs, as this tool does not take it"},
		{`{"offset":40}`, "Ask the user where offset belongs"},
		{`{"tickets":12}`, "Ask the user which tickets to use, at most 8"},
		{`{"amount":19.999}`, "Ask the user which amount to use, a multiple of 0.01"},
		{`{"seats":["F12","F12"],"quantity":2}`, "ask the user about the repeated items of seats"},
		{`{"note":"a longer note"}`, "ask the user how to shorten note to at most 5 characters"},
	}
	for _, tt := range asked {
		e := checkErr(t, s, tt.args)
		for _, v := range e.Violations {
			assert.Nil(t, v.SuggestedValue, "%s: %s has no repair", tt.args, v.Field)
		}
		assert.Nil(t, e.ExampleRequest, tt.args)
		assert.Contains(t, strings.ToLower(e.Hint), strings.ToLower(tt.hint), tt.args)
	}
}

// TestSuggestionLongerThanTheRenderingIsNotLost: a repair whose value the
// rendering would drop reaches the agent in example_request.
func TestSuggestionLongerThanTheRenderingIsNotLost(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{"body":{"type":"string","pattern":"^[a-z]+$"}}}`)
	long := strings.Repeat("a", 5000)
	e := checkErr(t, s, `{"body":"  `+long+`  "}`)
	require.NotNil(t, e.ExampleRequest, "the trimmed value is over MaxValueLen: example_request carries it")
	assert.Equal(t, long, e.ExampleRequest.(map[string]any)["body"])
	assert.Contains(t, e.Hint, "example_request applies every fix", "the hint keeps its end: the value is not quoted")
	assert.Less(t, len(e.Hint), 200)
}

// TestDeclaredCapAndMinorUnitsAreWords: a cap is declared by "capped" or
// "clamped", or another cap phrase that names the maximum; a minor unit
// is a word of the name or description, not a part of one.
func TestDeclaredCapAndMinorUnitsAreWords(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{
		"wait": {"type":"integer","maximum":72,"description":"Values above 72 are treated as 72."},
		"rows": {"type":"integer","maximum":50,"description":"An empty value is treated as all rows."},
		"discount_percent": {"type":"integer"},
		"fee": {"type":"integer","description":"The fee in cents."}}}`)
	e := checkErr(t, s, `{"wait":96}`)
	assert.Equal(t, json.Number("72"), e.SuggestedValue)
	e = checkErr(t, s, `{"rows":80}`)
	assert.Nil(t, e.SuggestedValue, "\"treated as\" about something else declares no cap")
	e = checkErr(t, s, `{"discount_percent":"15.0"}`)
	assert.Equal(t, json.Number("15.0"), e.SuggestedValue, "percent is not a cent")
	e = checkErr(t, s, `{"fee":"15.00"}`)
	assert.Nil(t, e.SuggestedValue, "dollars or cents: the user says")
}
