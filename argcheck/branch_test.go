package argcheck

import (
	"strings"
	"testing"

	validator "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// bidSchema selects a bid strategy by the const of its type.
const bidSchema = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["bid_strategy"],
  "properties": {
    "bid_strategy": {
      "oneOf": [
        {"type": "object", "additionalProperties": false, "required": ["type", "max_bid_cents"],
         "properties": {"type": {"const": "manual"}, "max_bid_cents": {"type": "integer", "minimum": 1}}},
        {"type": "object", "additionalProperties": false, "required": ["type", "target_cpa_cents"],
         "properties": {"type": {"const": "target_cpa"}, "target_cpa_cents": {"type": "integer", "minimum": 1}}},
        {"type": "object", "additionalProperties": false, "required": ["type"],
         "properties": {"type": {"const": "automatic"}}}
      ]
    }
  }
}`

// contactSchema wants an email, a phone, or both; neither has a
// discriminator.
const contactSchema = `{
  "type": "object",
  "required": ["contact"],
  "properties": {
    "contact": {
      "type": "object",
      "anyOf": [
        {"required": ["email"], "additionalProperties": false,
         "properties": {"email": {"type": "string", "format": "email"}, "phone": {"type": "string", "pattern": "^\\+[1-9][0-9]{7,14}$"}}},
        {"required": ["phone"], "additionalProperties": false,
         "properties": {"email": {"type": "string", "format": "email"}, "phone": {"type": "string", "pattern": "^\\+[1-9][0-9]{7,14}$"}}}
      ]
    }
  }
}`

// collectionSchema selects where a specimen is taken by the const of
// method, through a $ref; the discriminator of the second branch is an
// enum of one member.
const collectionSchema = `{
  "type": "object",
  "required": ["collection"],
  "properties": {"collection": {"$ref": "#/$defs/collection"}},
  "$defs": {
    "collection": {
      "oneOf": [
        {"type": "object", "additionalProperties": false, "required": ["method", "clinic_id"],
         "properties": {"method": {"const": "in_clinic"}, "clinic_id": {"type": "string", "pattern": "^CL[0-9]{3}$"}}},
        {"$ref": "#/$defs/home"}
      ]
    },
    "home": {"type": "object", "additionalProperties": false, "required": ["method", "address"],
      "properties": {"method": {"enum": ["home_visit"]}, "address": {"type": "string", "minLength": 5},
        "window": {"enum": ["morning", "afternoon"]}}}
  }
}`

// branchErr checks args, decoded as a call's arguments are, and returns
// the VALIDATION_FAILED it must give.
func branchErr(t *testing.T, s *Schema, args string) *toolerr.Error {
	t.Helper()
	v, err := validator.UnmarshalJSON(strings.NewReader(args))
	require.NoError(t, err)
	checked := s.Check(v)
	require.Error(t, checked, args)
	e, ok := toolerr.From(checked)
	require.True(t, ok)
	require.Equal(t, toolerr.CodeValidationFailed, e.Code)
	require.NoError(t, toolerr.Validate(e.WithRequestID("req_1").AppendJSON(nil)))
	if e.ExampleRequest != nil {
		require.NoError(t, s.Check(e.ExampleRequest), "example_request validates")
	}
	return e
}

// suggested maps each violation's field to the JSON of its
// suggested_value, "" for none.
func suggested(e *toolerr.Error) map[string]string {
	out := map[string]string{}
	for _, v := range e.Violations {
		out[v.Field] = ""
		if v.SuggestedValue != nil {
			out[v.Field] = jsonText(v.SuggestedValue)
		}
	}
	return out
}

// compactJSON is the JSON text of doc as jsonText writes it.
func compactJSON(t *testing.T, doc string) string {
	t.Helper()
	v, err := validator.UnmarshalJSON(strings.NewReader(doc))
	require.NoError(t, err)
	return jsonText(v)
}

// TestBranchRepairsInsideTheChosenBranch: a union whose branch is fixed
// by a discriminator, by its required properties, or by a misspelt
// property's nearest name reports that branch's violations at their own
// fields, and repairs them.
func TestBranchRepairsInsideTheChosenBranch(t *testing.T) {
	bid, contact, collection := mustCompile(t, bidSchema), mustCompile(t, contactSchema), mustCompile(t, collectionSchema)
	tests := []struct {
		name    string
		s       *Schema
		args    string
		want    map[string]string // field -> JSON of suggested_value
		example string            // the example_request; "" when none is given
	}{
		{"discriminator in another case", bid, `{"bid_strategy":{"type":"Manual","max_bid_cents":120}}`,
			map[string]string{"/bid_strategy/type": `"manual"`}, ""},
		{"discriminator in another case and a numeric string", bid, `{"bid_strategy":{"type":"Manual","max_bid_cents":"120"}}`,
			map[string]string{"/bid_strategy/type": `"manual"`, "/bid_strategy/max_bid_cents": `120`},
			`{"bid_strategy":{"type":"manual","max_bid_cents":120}}`},
		{"exact discriminator, numeric string inside", bid, `{"bid_strategy":{"type":"target_cpa","target_cpa_cents":"800"}}`,
			map[string]string{"/bid_strategy/target_cpa_cents": `800`}, ""},
		{"discriminator a prefix of one const", bid, `{"bid_strategy":{"type":"auto"}}`,
			map[string]string{"/bid_strategy/type": `"automatic"`}, ""},
		{"discriminator one typo away", bid, `{"bid_strategy":{"type":"manaul","max_bid_cents":120}}`,
			map[string]string{"/bid_strategy/type": `"manual"`}, ""},
		{"exact discriminator, required missing", bid, `{"bid_strategy":{"type":"manual"}}`,
			map[string]string{"/bid_strategy/max_bid_cents": ""}, ""},
		{"exact discriminator, property of another branch", bid, `{"bid_strategy":{"type":"target_cpa","target_cpa_cents":800,"max_bid_cents":1200}}`,
			map[string]string{"/bid_strategy/max_bid_cents": ""}, ""},
		{"misspelt property completes one branch", contact, `{"contact":{"emial":"a@b.co"}}`,
			map[string]string{"/contact/emial": `"email"`, "/contact/email": `"a@b.co"`}, `{"contact":{"email":"a@b.co"}}`},
		{"the only branch whose required are present", contact, `{"contact":{"phone":"020 7946 0958"}}`,
			map[string]string{"/contact/phone": ""}, ""},
		{"pattern by case inside a $ref'd union", collection, `{"collection":{"method":"in_clinic","clinic_id":"cl014"}}`,
			map[string]string{"/collection/clinic_id": `"CL014"`}, ""},
		{"discriminator by separators, one-member enum in a $ref'd branch", collection,
			`{"collection":{"method":"home visit","address":"12 Rua Augusta","window":"Morning"}}`,
			map[string]string{"/collection/method": `"home_visit"`, "/collection/window": `"morning"`},
			`{"collection":{"method":"home_visit","address":"12 Rua Augusta","window":"morning"}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := branchErr(t, tt.s, tt.args)
			assert.Equal(t, tt.want, suggested(e))
			if tt.example == "" {
				assert.Nil(t, e.ExampleRequest)
				return
			}
			require.NotNil(t, e.ExampleRequest)
			assert.Equal(t, compactJSON(t, tt.example), jsonText(e.ExampleRequest))
		})
	}
}

// TestBranchValidCallsPass: a call that fits its branch is valid.
func TestBranchValidCallsPass(t *testing.T) {
	for _, tt := range []struct{ schema, args string }{
		{collectionSchema, `{"collection":{"method":"in_clinic","clinic_id":"CL014"}}`},
		{collectionSchema, `{"collection":{"method":"home_visit","address":"12 Rua Augusta"}}`},
		{bidSchema, `{"bid_strategy":{"type":"automatic"}}`},
		{contactSchema, `{"contact":{"email":"a@b.co","phone":"+442079460958"}}`},
	} {
		v, err := validator.UnmarshalJSON(strings.NewReader(tt.args))
		require.NoError(t, err)
		assert.NoError(t, mustCompile(t, tt.schema).Check(v), tt.args)
	}
}

// TestBranchNotChosenIsNotGuessed: when no branch or several fit, the
// union keeps its one violation at its own location, with nothing
// suggested inside it.
func TestBranchNotChosenIsNotGuessed(t *testing.T) {
	homeSchema := strings.NewReplacer(`"enum": ["home_visit"]`, `"enum": ["home_pickup"]`,
		`"const": "in_clinic"`, `"const": "home_visit"`).Replace(collectionSchema)
	tests := []struct {
		name, schema, args, field string
	}{
		{"required of two branches present", contactSchema, `{"contact":{"email":"a.b.co","phone":"12"}}`, "/contact"},
		{"required of no branch present", contactSchema, `{"contact":{}}`, "/contact"},
		{"misspelt property equally near two names", contactSchema, `{"contact":{"emial":"a@b.co","emali":"c@d.co"}}`, "/contact"},
		{"discriminator a prefix of two consts", homeSchema, `{"collection":{"method":"home","address":"12 Rua Augusta"}}`, "/collection"},
		{"discriminator near no const, required of one branch present", collectionSchema,
			`{"collection":{"method":"lab","clinic_id":"CL014"}}`, "/collection"},
		{"discriminator too short for a prefix", bidSchema, `{"bid_strategy":{"type":"au"}}`, "/bid_strategy"},
		{"not an object", bidSchema, `{"bid_strategy":"manual"}`, "/bid_strategy"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e := branchErr(t, mustCompile(t, tt.schema), tt.args)
			assert.Equal(t, map[string]string{tt.field: ""}, suggested(e))
			assert.Nil(t, e.ExampleRequest)
			assert.Contains(t, e.Violations[0].Reason, "must match")
		})
	}
}

// TestBranchNestedUnion: a union inside the chosen branch is chosen in
// turn.
func TestBranchNestedUnion(t *testing.T) {
	s := mustCompile(t, `{
	  "type": "object",
	  "properties": {"payment": {"oneOf": [
	    {"type": "object", "required": ["method", "card"], "properties": {
	      "method": {"const": "card"},
	      "card": {"oneOf": [
	        {"type": "object", "required": ["network", "last4"], "properties": {"network": {"const": "visa"}, "last4": {"type": "string", "pattern": "^[0-9]{4}$"}}},
	        {"type": "object", "required": ["network", "last4"], "properties": {"network": {"const": "amex"}, "last4": {"type": "string", "pattern": "^[0-9]{4}$"}}}
	      ]}}},
	    {"type": "object", "required": ["method", "iban"], "properties": {"method": {"const": "bank"}, "iban": {"type": "string"}}}
	  ]}}
	}`)
	e := branchErr(t, s, `{"payment":{"method":"Card","card":{"network":"VISA","last4":1234}}}`)
	assert.Equal(t, map[string]string{"/payment/method": `"card"`, "/payment/card/network": `"visa"`, "/payment/card/last4": `"1234"`}, suggested(e))
	assert.Equal(t, compactJSON(t, `{"payment":{"method":"card","card":{"network":"visa","last4":"1234"}}}`), jsonText(e.ExampleRequest))
}

// TestBranchFailingFields: a repair is judged by the violations findings
// reports: those inside the chosen branch, else the union's location.
func TestBranchFailingFields(t *testing.T) {
	s := mustCompile(t, bidSchema)
	for _, tt := range []struct {
		args string
		want []string
	}{
		{`{"bid_strategy":{"type":"Manual","max_bid_cents":"120"}}`, []string{"/bid_strategy/max_bid_cents", "/bid_strategy/type"}},
		{`{"bid_strategy":{"type":"manual","max_bid_cents":"120"}}`, []string{"/bid_strategy/max_bid_cents"}},
		{`{"bid_strategy":{"type":"bid_cap"}}`, []string{"/bid_strategy"}},
		{`{"bid_strategy":{"type":"manual","max_bid_cents":120}}`, nil},
	} {
		v, err := validator.UnmarshalJSON(strings.NewReader(tt.args))
		require.NoError(t, err)
		var got []string
		for field := range s.failingFields(s.compiled.Validate(v), v) {
			got = append(got, field)
		}
		assert.ElementsMatch(t, tt.want, got, tt.args)
	}
}

// BenchmarkCheckBranch measures the error of a call whose branch is
// chosen by a discriminator in another case, with a numeric string
// inside: two repairs checked and an example_request built.
func BenchmarkCheckBranch(b *testing.B) {
	s := mustCompile(b, bidSchema)
	args, err := validator.UnmarshalJSON(strings.NewReader(`{"bid_strategy":{"type":"Manual","max_bid_cents":"120"}}`))
	require.NoError(b, err)
	b.ReportAllocs()
	for b.Loop() {
		if s.Check(args) == nil {
			b.Fatal("the call must be invalid")
		}
	}
}
