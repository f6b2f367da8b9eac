package main

import (
	"encoding/json"
	"strconv"
	"strings"
	"time"
)

// observation is what the toolerr agent reads of a failed call: the text a
// model gets from its runtime (toolerr's observation, asked for with
// Accept: text/plain), one "name: value" member per line after the code
// line. The agent sees nothing else of the error: no JSON members, no
// status code.
type observation struct {
	Code, Category string
	Retryable      bool
	RetryAfter     time.Duration
	Field          string
	SuggestedValue any
	ExampleRequest map[string]any
	Details        map[string]any
	Actions        []string
	Hint           string
}

// parseObservation reads an observation; ok is false for text that is not
// one (a proxy's page, a bare message).
func parseObservation(text string) (o observation, ok bool) {
	lines := strings.Split(strings.TrimSpace(text), "\n")
	head, _, _ := strings.Cut(lines[0], ": ")
	code, category, found := strings.Cut(head, " (")
	if !found || !strings.HasSuffix(category, ")") || code == "" || strings.ToUpper(code) != code {
		return o, false
	}
	o.Code, o.Category = code, strings.TrimSuffix(category, ")")
	for _, l := range lines[1:] {
		name, value, found := strings.Cut(l, ": ")
		if !found {
			return o, false
		}
		switch name {
		case "retryable":
			for i, part := range strings.Split(value, ", ") {
				k, v, _ := strings.Cut(part, ": ")
				switch {
				case i == 0:
					o.Retryable = part == "true"
				case k == "retry_after_ms":
					ms, _ := strconv.ParseInt(v, 10, 64)
					o.RetryAfter = time.Duration(ms) * time.Millisecond
				}
			}
		case "field":
			o.Field = value
		case "suggested_value":
			_ = json.Unmarshal([]byte(value), &o.SuggestedValue)
		case "example_request":
			_ = json.Unmarshal([]byte(value), &o.ExampleRequest)
		case "details":
			_ = json.Unmarshal([]byte(value), &o.Details)
		case "actions":
			o.Actions = strings.Split(value, ", ")
		case "hint":
			o.Hint = value
		}
	}
	return o, true
}
