package argcheck

import (
	"encoding/json"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// ordersSchema is a search tool's schema that uses most keywords.
const ordersSchema = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["customer_id"],
  "properties": {
    "customer_id": {"type": "string", "minLength": 1},
    "query": {"type": "string", "maxLength": 10},
    "limit": {"type": "integer", "minimum": 1, "maximum": 100},
    "max_results": {"type": "integer", "minimum": 1, "maximum": 50, "description": "Values above 50 are capped to 50."},
    "page_size": {"type": "integer", "exclusiveMinimum": 0, "multipleOf": 5},
    "ratio": {"type": "number", "exclusiveMaximum": 1},
    "status": {"enum": ["open", "shipped", "next_day"]},
    "since": {"type": "string", "format": "date"},
    "at": {"type": "string", "format": "date-time"},
    "currency": {"type": "string", "pattern": "^[A-Z]{3}$", "default": "USD"},
    "kind": {"const": "order"},
    "tags": {"type": "array", "uniqueItems": true, "maxItems": 3, "items": {"type": "string"}},
    "address": {"$ref": "#/$defs/address"},
    "express": {"type": "boolean"}
  },
  "$defs": {
    "address": {
      "type": "object",
      "additionalProperties": false,
      "required": ["postcode", "country"],
      "properties": {
        "postcode": {"type": "string", "pattern": "^[0-9]{5}$"},
        "country": {"type": "string", "default": "US"}
      }
    }
  }
}`

func mustCompile(t testing.TB, schema string) *Schema {
	t.Helper()
	s, err := Compile([]byte(schema))
	require.NoError(t, err)
	return s
}

// checkErr runs CheckJSON and returns the *toolerr.Error it must return.
func checkErr(t *testing.T, s *Schema, args string) *toolerr.Error {
	t.Helper()
	err := s.CheckJSON([]byte(args))
	require.Error(t, err, "%s must be invalid", args)
	e, ok := toolerr.From(err)
	require.True(t, ok, "a *toolerr.Error, got %T", err)
	require.Equal(t, toolerr.CodeValidationFailed, e.Code)
	require.NoError(t, toolerr.Validate(e.WithRequestID("req_1").AppendJSON(nil)), "the rendering keeps the contract")
	return e
}

func TestValidArgumentsPass(t *testing.T) {
	s := mustCompile(t, ordersSchema)
	for _, args := range []string{
		`{"customer_id":"c1"}`,
		`{"customer_id":"c1","limit":100,"page_size":5,"ratio":0.5,"status":"next_day","since":"2026-03-14",` +
			`"at":"2026-03-14T09:30:00Z","currency":"EUR","kind":"order","tags":["a","b"],"address":{"postcode":"12345","country":"US"},"express":true}`,
		` {"customer_id":"c1"} `,
	} {
		assert.NoError(t, s.CheckJSON([]byte(args)), args)
	}
}

func TestEachViolationIsPointedAtAndRepaired(t *testing.T) {
	s := mustCompile(t, ordersSchema)
	tests := []struct {
		name, args string
		field      string
		allowed    string // JSON of allowed_values; "" for none
		suggested  string // JSON of suggested_value; "" for none
		hint       string // a part of the hint
	}{
		// A clamp changes what was asked, unless the schema says the
		// server caps the value anyway.
		{"above maximum", `{"customer_id":"c","limit":500}`, "/limit", `{"maximum":100,"minimum":1}`, ``, "Ask the user which limit to use, between 1 and 100"},
		{"above a declared cap", `{"customer_id":"c","max_results":500}`, "/max_results", `{"maximum":50,"minimum":1}`, `50`, "Set max_results between 1 and 50 (nearest: 50)"},
		{"below the minimum of a declared cap", `{"customer_id":"c","max_results":0}`, "/max_results", `{"maximum":50,"minimum":1}`, ``, "ask the user which max_results"},
		{"below minimum", `{"customer_id":"c","limit":-4}`, "/limit", `{"maximum":100,"minimum":1}`, ``, "between 1 and 100"},
		{"exclusive minimum", `{"customer_id":"c","page_size":0}`, "/page_size", `{"exclusiveMinimum":0,"multipleOf":5}`, ``, "ask the user which page_size to use, above 0"},
		{"not a multiple", `{"customer_id":"c","page_size":12}`, "/page_size", `{"exclusiveMinimum":0,"multipleOf":5}`, ``, "multiple of 5"},
		{"exclusive bound of a real number", `{"customer_id":"c","ratio":1}`, "/ratio", `{"exclusiveMaximum":1}`, ``, "ask the user which ratio to use, below 1"},
		{"enum by case", `{"customer_id":"c","status":"Shipped"}`, "/status", `["open","shipped","next_day"]`, `"shipped"`, `Set status to "shipped"`},
		{"enum by separators", `{"customer_id":"c","status":"Next-Day"}`, "/status", `["open","shipped","next_day"]`, `"next_day"`, `"next_day"`},
		{"enum by one typo", `{"customer_id":"c","status":"shiped"}`, "/status", `["open","shipped","next_day"]`, `"shipped"`, `"shipped"`},
		{"enum by a unique prefix", `{"customer_id":"c","status":"ship"}`, "/status", `["open","shipped","next_day"]`, `"shipped"`, `"shipped"`},
		{"enum far from every member", `{"customer_id":"c","status":"lost"}`, "/status", `["open","shipped","next_day"]`, ``, "Ask the user which status applies: open, shipped or next_day"},
		{"date in another layout", `{"customer_id":"c","since":"March 14, 2026"}`, "/since", `{"format":"date"}`, `"2026-03-14"`, `"2026-03-14"`},
		{"day over twelve settles the order", `{"customer_id":"c","since":"25/12/2026"}`, "/since", `{"format":"date"}`, `"2026-12-25"`, ""},
		{"ambiguous date", `{"customer_id":"c","since":"03/04/2026"}`, "/since", `{"format":"date"}`, ``, "YYYY-MM-DD"},
		{"date-time with a zone", `{"customer_id":"c","at":"2026-03-14 09:30:00Z"}`, "/at", `{"format":"date-time"}`, `"2026-03-14T09:30:00Z"`, ""},
		{"date-time without a zone", `{"customer_id":"c","at":"2026-03-14 09:30"}`, "/at", `{"format":"date-time"}`, ``, "time zone"},
		{"too long: never cut", `{"customer_id":"c","query":"blue suede shoes"}`, "/query", `{"maxLength":10}`, ``, "ask the user how to shorten query to at most 10 characters"},
		{"pattern by case", `{"customer_id":"c","currency":"usd"}`, "/currency", `{"pattern":"^[A-Z]{3}$"}`, `"USD"`, ""},
		{"pattern with no rewrite", `{"customer_id":"c","currency":"dollars"}`, "/currency", `{"pattern":"^[A-Z]{3}$"}`, ``, "ask the user for currency in the form ^[A-Z]{3}$"},
		{"pattern never dropping a separator", `{"customer_id":"c","currency":"U.S"}`, "/currency", `{"pattern":"^[A-Z]{3}$"}`, ``, "ask the user for currency"},
		{"const", `{"customer_id":"c","kind":"invoice"}`, "/kind", `["order"]`, `"order"`, `Set kind to "order"`},
		{"numeric string", `{"customer_id":"c","limit":"25"}`, "/limit", `{"type":"integer"}`, `25`, "Set limit to 25"},
		{"boolean string", `{"customer_id":"c","express":"TRUE"}`, "/express", `{"type":"boolean"}`, `true`, ""},
		{"numeric string over a declared cap", `{"customer_id":"c","max_results":"500"}`, "/max_results", `{"type":"integer"}`, `50`, "Set max_results to 50"},
		{"wrong type with no conversion", `{"customer_id":"c","limit":{"n":1}}`, "/limit", `{"type":"integer"}`, ``, "ask the user for limit as an integer"},
		{"repeated items", `{"customer_id":"c","tags":["a","b","a"]}`, "/tags", ``, `["a","b"]`, "remove the repeated items from tags"},
		{"misspelt property", `{"customer_id":"c","limt":5}`, "/limt", `["address","at","currency","customer_id","express","kind","limit","max_results","page_size","query","ratio","since","status","tags"]`, `"limit"`, "Rename limt to limit"},
		{"camelCase property", `{"customerId":"c"}`, "/customerId", `["address","at","currency","customer_id","express","kind","limit","max_results","page_size","query","ratio","since","status","tags"]`, `"customer_id"`, "Rename customerId to customer_id"},
		{"abbreviated property", `{"customer_id":"c","stat":"open"}`, "/stat", `["address","at","currency","customer_id","express","kind","limit","max_results","page_size","query","ratio","since","status","tags"]`, `"status"`, "Rename stat to status"},
		{"unknown property", `{"customer_id":"c","colour":"red"}`, "/colour", `["address","at","currency","customer_id","express","kind","limit","max_results","page_size","query","ratio","since","status","tags"]`, ``, "ask the user where colour belongs"},
		{"missing required", `{}`, "/customer_id", ``, ``, "ask the user for customer_id"},
		{"empty required", `{"customer_id":""}`, "/customer_id", `{"minLength":1}`, ``, "ask the user for customer_id"},
		{"missing with a default, in a $ref", `{"customer_id":"c","address":{"postcode":"12345"}}`, "/address/country", ``, `"US"`, `Set address/country to "US"`},
		{"nested pattern", `{"customer_id":"c","address":{"postcode":"1234","country":"US"}}`, "/address/postcode", `{"pattern":"^[0-9]{5}$"}`, ``, "address/postcode"},
		{"arguments not an object", `[1]`, "", `{"type":"object"}`, ``, "Send the arguments as an object"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := checkErr(t, s, tt.args)
			require.NotEmpty(t, e.Violations)
			assert.Equal(t, tt.field, e.Field)
			assert.Equal(t, tt.field, e.Violations[0].Field)
			assertJSON(t, tt.allowed, e.AllowedValues, "allowed_values")
			assertJSON(t, tt.suggested, e.SuggestedValue, "suggested_value")
			assert.Contains(t, strings.ToLower(e.Hint), strings.ToLower(tt.hint))
			if tt.suggested == "" {
				assert.Nil(t, e.ExampleRequest, "no example_request when a violation has no repair")
				return
			}
			rename := strings.HasSuffix(tt.name, "property")
			if !rename {
				// One value to set: field and suggested_value are the repair.
				assert.Nil(t, e.ExampleRequest)
				args, err := decodeArguments([]byte(tt.args))
				require.NoError(t, err)
				if tt.field == "" {
					args = e.SuggestedValue
				} else {
					require.True(t, set(args, tt.field, e.SuggestedValue))
				}
				assert.NoError(t, s.Check(args), "suggested_value at field is the whole repair")
				return
			}
			require.NotNil(t, e.ExampleRequest, "a renamed property is repaired by example_request")
			assert.NoError(t, s.Check(e.ExampleRequest), "example_request validates")
			assert.Contains(t, e.Hint, "example_request")
		})
	}
}

// assertJSON compares v's JSON with want ("" for nil).
func assertJSON(t *testing.T, want string, v any, name string) {
	t.Helper()
	if want == "" {
		assert.Nil(t, v, name)
		return
	}
	got, err := json.Marshal(v)
	require.NoError(t, err)
	assert.JSONEq(t, want, string(got), name)
}

func TestEveryViolationIsReported(t *testing.T) {
	s := mustCompile(t, ordersSchema)
	e := checkErr(t, s, `{"limt":5,"status":"Shipped","since":"2026/03/14","query":"blue suede shoes"}`)
	var fields []string
	for _, v := range e.Violations {
		fields = append(fields, v.Field)
	}
	assert.ElementsMatch(t, []string{"/limt", "/status", "/since", "/query", "/customer_id"}, fields)
	assert.Equal(t, "/customer_id", e.Violations[len(e.Violations)-1].Field,
		"what only the user can give comes last: the top-level field is one the model can fix")
	assert.Nil(t, e.ExampleRequest, "customer_id has no repair, so there is no example_request")
	assert.Contains(t, e.Hint, "ask the user for customer_id", "the hint always says what to ask the user")
	assert.Contains(t, e.Detail, "5 arguments are invalid")

	e = checkErr(t, s, `{"customer_id":"c","limt":5,"status":"Shipped","since":"2026/03/14","express":"true"}`)
	require.NotNil(t, e.ExampleRequest)
	assert.Equal(t, map[string]any{"customer_id": "c", "limit": json.Number("5"), "status": "shipped",
		"since": "2026-03-14", "express": true}, e.ExampleRequest)
	assert.NoError(t, s.Check(e.ExampleRequest))
	assert.Contains(t, e.Hint, "Fix the other 1 listed in violations")
}

func TestInteractingRepairsStillValidate(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{"n":{"type":"integer","maximum":100,"multipleOf":7,
		"description":"Larger values are capped."}}}`)
	e := checkErr(t, s, `{"n":1000}`)
	require.NotNil(t, e.SuggestedValue)
	assert.Equal(t, json.Number("98"), e.SuggestedValue, "clamped to 100, then onto the multiple below it")
	assert.NoError(t, s.Check(map[string]any{"n": e.SuggestedValue}))
	assert.Contains(t, e.Detail, "n breaks 2 rules")
}

func TestInvalidJSONAndBlankArguments(t *testing.T) {
	s := mustCompile(t, ordersSchema)
	e := checkErr(t, s, `{"customer_id":`)
	assert.Equal(t, "", e.Field)
	assert.Contains(t, e.Hint, "valid JSON")

	e = checkErr(t, s, ``)
	assert.Equal(t, "/customer_id", e.Field, "blank arguments are {}, as MCP's absent arguments")

	assert.Error(t, s.Check(map[string]any{"customer_id": make(chan int)}))
}

func TestCheckDoesNotModifyTheArguments(t *testing.T) {
	s := mustCompile(t, ordersSchema)
	args := map[string]any{"limt": 5.0, "customer_id": "c", "status": "Shipped", "address": map[string]any{"postcode": "12345"}}
	before, _ := json.Marshal(args)
	e, _ := toolerr.From(s.Check(args))
	require.NotNil(t, e)
	after, _ := json.Marshal(args)
	assert.JSONEq(t, string(before), string(after))
	require.NotNil(t, e.ExampleRequest, "float64 numbers, as encoding/json decodes them, are repaired too")
	assert.NoError(t, s.Check(e.ExampleRequest))
}

func TestCompileErrors(t *testing.T) {
	for _, schema := range []any{nil, []byte(`{`), []byte(`{"type":"object","$ref":"https://example.com/x.json"}`),
		[]byte(`{"type":"object","properties":{"a":{"$ref":"file:///etc/passwd"}}}`), make(chan int), []byte(`{"minimum":"x"}`)} {
		_, err := Compile(schema)
		assert.Error(t, err, "%v", schema)
	}
	_, err := Compile(map[string]any{"type": "object"})
	assert.NoError(t, err, "a map marshals to a schema")
}

func TestRepairKeywordTurnsRepairsOff(t *testing.T) {
	s := mustCompile(t, `{"type":"object","required":["amount","currency"],"properties":{
		"amount":{"type":"integer","minimum":1,"maximum":5000,"x-toolerr-repair":false},
		"currency":{"enum":["usd","eur"],"default":"usd","x-toolerr-repair":false}}}`)
	e := checkErr(t, s, `{"amount":9000,"currency":"USD"}`)
	for _, v := range e.Violations {
		assert.Nil(t, v.SuggestedValue, v.Field)
	}
	assert.Nil(t, e.ExampleRequest)
	assert.Equal(t, "Ask the user which amount to use, between 1 and 5000; ask the user which currency applies: usd or eur. Then call again.", e.Hint)
	assert.Equal(t, map[string]any{"maximum": json.Number("5000"), "minimum": json.Number("1")}, e.AllowedValues,
		"allowed_values still says what is allowed")

	e = checkErr(t, s, `{"amount":10}`)
	assert.Nil(t, e.SuggestedValue, "not even a default fills a value whose repairs are off")
}

// TestNumbersAreClampedOnlyToADeclaredCap: a number out of range or off
// its multiple is what the user asked for, so it is never rounded or
// raised; above a maximum the description says the server caps, the cap
// is what the call gets anyway.
func TestNumbersAreClampedOnlyToADeclaredCap(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{
		"minutes":{"type":"integer","multipleOf":30,"maximum":600,"description":"Longer waits are capped at 600."},
		"seats":{"type":"integer","minimum":1,"maximum":8}}}`)
	e := checkErr(t, s, `{"minutes":50}`)
	assert.Nil(t, e.SuggestedValue, "50 is not rounded to 60")
	assert.Contains(t, e.Hint, "Ask the user which minutes to use, a multiple of 30")
	e = checkErr(t, s, `{"minutes":615}`)
	assert.Equal(t, json.Number("600"), e.SuggestedValue, "capped, as the description says")
	e = checkErr(t, s, `{"minutes":"615"}`)
	assert.Equal(t, json.Number("600"), e.SuggestedValue, "converted, then capped")
	e = checkErr(t, s, `{"seats":12}`)
	assert.Nil(t, e.SuggestedValue, "12 seats are not 8: no cap is declared")
	e = checkErr(t, s, `{"seats":"12"}`)
	assert.Nil(t, e.SuggestedValue, "converting alone would leave 12 over the maximum")
	assert.Nil(t, e.ExampleRequest)
}

func TestARenamedPropertyKeepsItsValueOverADefault(t *testing.T) {
	s := mustCompile(t, `{"type":"object","additionalProperties":false,"required":["channel"],
		"properties":{"channel":{"enum":["api","web"],"default":"web"}}}`)
	e := checkErr(t, s, `{"chanel":"api"}`)
	assert.Equal(t, map[string]any{"channel": "api"}, e.ExampleRequest, "the caller's value, renamed, not the default")
}

func TestPropertyNamesThatNeedEscaping(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{"page size":{"type":"integer","maximum":50,"description":"capped at 50"},
		"a/b":{"enum":["x","y"]},"c~d":{"type":"integer","minimum":1}}}`)
	e := checkErr(t, s, `{"page size":80}`)
	assert.Equal(t, "/page size", e.Field)
	assert.Equal(t, json.Number("50"), e.SuggestedValue, "the schema of a property with a space is found")
	e = checkErr(t, s, `{"a/b":"X"}`)
	assert.Equal(t, "/a~1b", e.Field)
	assert.Equal(t, "x", e.SuggestedValue)
	e = checkErr(t, s, `{"c~d":"3"}`)
	assert.Equal(t, "/c~0d", e.Field)
	assert.Equal(t, json.Number("3"), e.SuggestedValue)
}

// TestConcurrentChecks: one Schema serves many goroutines (run with -race),
// each getting the same answer it gets alone.
func TestConcurrentChecks(t *testing.T) {
	s := mustCompile(t, ordersSchema)
	calls := []string{`{"customer_id":"c","limit":500}`, `{"limt":5,"status":"Shipped"}`, `{"customer_id":"c"}`, `{`}
	want := make([]string, len(calls))
	for i, c := range calls {
		if err := s.CheckJSON([]byte(c)); err != nil {
			want[i] = string(err.(*toolerr.Error).AppendJSON(nil))
		}
	}
	var wg sync.WaitGroup
	for g := range 8 {
		wg.Go(func() {
			for n := range 50 {
				i := (g + n) % len(calls)
				got := ""
				if err := s.CheckJSON([]byte(calls[i])); err != nil {
					got = string(err.(*toolerr.Error).AppendJSON(nil))
				}
				assert.Equal(t, want[i], got)
			}
		})
	}
	wg.Wait()
}

// TestChangingAnErrorLeavesTheSchemaAlone: the values an error carries
// are copies; changing them does not change what the schema allows.
func TestChangingAnErrorLeavesTheSchemaAlone(t *testing.T) {
	s := mustCompile(t, `{"type":"object","required":["mode"],"properties":{
		"mode":{"enum":[{"k":"a"},{"k":"b"}],"default":{"k":"a"}},"kind":{"const":{"v":1}}}}`)
	e := checkErr(t, s, `{"kind":{"v":2}}`)
	for _, v := range e.Violations {
		if m, ok := v.SuggestedValue.(map[string]any); ok {
			m["k"] = "z"
			m["v"] = "z"
		}
		if list, ok := v.AllowedValues.([]any); ok {
			for _, x := range list {
				if m, ok := x.(map[string]any); ok {
					m["k"] = "z"
					m["v"] = "z"
				}
			}
		}
	}
	assert.NoError(t, s.CheckJSON([]byte(`{"mode":{"k":"a"},"kind":{"v":1}}`)), "the schema still allows what it did")
	e = checkErr(t, s, `{"kind":{"v":2}}`)
	for _, v := range e.Violations {
		switch v.Field {
		case "/mode":
			assert.Equal(t, map[string]any{"k": "a"}, v.SuggestedValue)
		case "/kind":
			assert.Equal(t, map[string]any{"v": json.Number("1")}, v.SuggestedValue)
		}
	}
}
