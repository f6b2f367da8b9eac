package mcptest

import (
	"context"
	"encoding/json"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/argcheck"
)

// bookSchema is the input schema of book_berth: what the library
// validates before the handler runs.
const bookSchema = `{
  "type": "object",
  "additionalProperties": false,
  "required": ["vessel", "port", "hours"],
  "properties": {
    "vessel": {"type": "string", "pattern": "^IMO[0-9]{7}$"},
    "port": {"enum": ["rotterdam", "hamburg", "antwerp"]},
    "hours": {"type": "integer", "minimum": 1, "maximum": 72, "description": "Forecast hours; longer forecasts are capped to 72."},
    "eta": {"type": "string", "format": "date-time"}
  }
}`

// The calls of caseRejectedArguments.
const (
	bookInvalid  = `{"vessel":"IMO9321483","port":"Rotterdam","hours":100,"eta":"2026-03-14 09:30:00Z"}`
	bookRepaired = `{"vessel":"IMO9321483","port":"rotterdam","hours":72,"eta":"2026-03-14T09:30:00Z"}`
	bookMissing  = `{"port":"hamburg"}`
	bookWrongTyp = `{"vessel":"IMO9321483","port":"hamburg","hours":"many"}`
)

// caseRejectedArguments: arguments the library rejects against the input
// schema, before the handler runs, reach the model as VALIDATION_FAILED
// with every violation at its JSON pointer and the repair where one is
// certain; missing values nobody can derive are asked of the user, never
// invented. The repaired call runs.
func caseRejectedArguments() *testCase {
	var runs atomic.Int32
	book := Tool{
		Name: "book_berth", Description: "Book a berth.", InputSchema: json.RawMessage(bookSchema),
		Handler: func(context.Context, json.RawMessage) (any, error) {
			runs.Add(1)
			return map[string]any{"berth": "B7"}, nil
		},
	}
	return &testCase{
		name:              "arguments/rejected by the library are VALIDATION_FAILED with the field and the repair",
		libraryValidation: true,
		tools:             []Tool{book},
		calls: []call{
			callOf("book_berth", bookInvalid), callOf("book_berth", bookMissing),
			callOf("book_berth", bookWrongTyp), callOf("book_berth", bookRepaired),
		},
		check: func(t *testing.T, r *report) {
			p := r.failed(t, 0)
			assert.Equal(t, toolerr.CodeValidationFailed, p["code"])
			assert.Equal(t, "book_berth", p["tool"])
			var fields []string
			for _, v := range p["violations"].([]any) {
				fields = append(fields, str(v.(map[string]any), "field"))
			}
			assert.ElementsMatch(t, []string{"/port", "/hours", "/eta"}, fields, "every violation at its pointer")
			assert.Equal(t, jsonValue(t, bookRepaired), p["example_request"], "the certain repair")
			text := r.text(t, 0)
			assert.True(t, strings.HasPrefix(text, "VALIDATION_FAILED (validation): 3 arguments are invalid"), text)
			assert.Contains(t, text, "\nexample_request: ", "the repair is in the text a model reads")

			p = r.failed(t, 1)
			assert.Contains(t, p["hint"], "Ask the user for hours (Forecast hours) and vessel", "values nobody can derive are asked for")
			assert.NotContains(t, p, "example_request", "no repair is invented")

			p = r.failed(t, 2)
			assert.Equal(t, "/hours", p["field"])

			assert.Equal(t, `{"berth":"B7"}`, r.text(t, 3), "the repaired call runs")
			assert.Equal(t, int32(1), runs.Load(), "the handler runs for the valid call only")
		},
	}
}

// slotSchema is the declared input schema of book_slot; the handler
// checks the arguments against slotRules, which it knows at run time
// (today's free hours), and returns argcheck's error.
const (
	slotSchema = `{"type":"object","required":["port","hours"],"properties":{"port":{"type":"string"},"hours":{"type":"integer","minimum":1,"maximum":72}}}`
	slotRules  = `{"type":"object","properties":{"port":{"enum":["hamburg","rotterdam"]},"hours":{"type":"integer","minimum":1,"maximum":24}}}`
)

// caseHandlerChecksArguments: a handler that checks its own arguments
// (argcheck, or a toolerr validation error of its own) gets its error to
// the model as it made it.
func caseHandlerChecksArguments() *testCase {
	rules, err := argcheck.Compile(slotRules)
	slot := Tool{
		Name: "book_slot", Description: "Book a slot.", InputSchema: json.RawMessage(slotSchema),
		Handler: func(_ context.Context, args json.RawMessage) (any, error) {
			if err != nil {
				return nil, err
			}
			if err := rules.CheckJSON(args); err != nil {
				return nil, err
			}
			return map[string]any{"slot": "S1"}, nil
		},
	}
	vessel := failing("book_vessel", func() error {
		return toolerr.Default().New(toolerr.CodeValidationFailed, "No vessel is registered under IMO9999999.").
			WithField("vessel").WithHint("Ask the user for the vessel's IMO number.")
	})
	slotCalls := []string{`{"port":"hamburg","hours":48}`, `{"port":"Hamburg","hours":12}`}
	return &testCase{
		name:  "arguments/checked by the handler reach the model as the handler made them",
		tools: []Tool{slot, vessel},
		calls: []call{callOf("book_slot", slotCalls[0]), callOf("book_slot", slotCalls[1]), callOf("book_vessel", `{"vessel":"IMO9999999"}`)},
		check: func(t *testing.T, r *report) {
			require.NoError(t, err)
			for i, args := range slotCalls {
				p := r.failed(t, i)
				want, ok := toolerr.From(rules.CheckJSON([]byte(args)))
				require.True(t, ok, "argcheck rejects %s", args)
				w := asJSON(t, json.RawMessage(want.AppendJSON(nil)))
				for _, member := range []string{"code", "category", "detail", "field", "allowed_values", "suggested_value",
					"violations", "example_request", "hint"} {
					assert.Equal(t, w[member], p[member], "%s: %s is argcheck's", args, member)
				}
			}
			p := r.failed(t, 2)
			assert.Equal(t, toolerr.CodeValidationFailed, p["code"])
			assert.Equal(t, "vessel", p["field"])
			assert.Equal(t, "Ask the user for the vessel's IMO number.", p["hint"])
		},
	}
}
