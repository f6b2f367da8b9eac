package toolerr

import (
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"sync"
)

// Validate checks a rendered error, problem object or envelope, against the
// contract and returns every violation found, joined, or nil. It checks the
// required members and their types, the enums (category, severity, actions,
// retry strategy), the formats of code, request id and trace id, the size
// limits of [MaxDetailLen] and its siblings, that no unknown member is
// present, and the cross-member rules: retryable only in a category that
// can be retried, a retryable rate limit carries retry_after_ms, a
// retry_policy only on a retryable error. Item errors are checked the same
// way, with index required and the request-scoped members absent.
//
// Services call Validate in their own tests on whatever their tools render.
func Validate(body []byte) error {
	if len(body) > MaxBodyLen {
		return fmt.Errorf("toolerr: validate: body of %d bytes is over %d", len(body), MaxBodyLen)
	}
	var top map[string]any
	if err := decodeStrictNumbers(body, &top); err != nil {
		return fmt.Errorf("toolerr: validate: not a JSON object: %w", err)
	}
	problem, item := rules()
	v := &validator{problem: problem, item: item}
	if ok, isEnvelope := top["ok"]; isEnvelope {
		inner, isObject := top["error"].(map[string]any)
		switch {
		case ok != false:
			v.fail("", "envelope ok must be false")
		case !isObject:
			v.fail("", "envelope error must be an object")
		case len(top) != 2:
			v.fail("", "envelope has members other than ok and error")
		default:
			v.object("", inner, false)
		}
	} else {
		v.object("", top, false)
	}
	return errors.Join(v.errs...)
}

type validator struct {
	problem, item map[string]memberRule
	errs          []error
}

func (v *validator) fail(path, format string, args ...any) {
	if path != "" {
		format = path + ": " + format
	}
	v.errs = append(v.errs, fmt.Errorf("toolerr: validate: "+format, args...))
}

// memberRule checks one member's value; nil means the member may hold any JSON.
type memberRule func(v *validator, path string, value any)

// rules returns the member rules of a problem object and of an item of a
// batch, built once and only read afterwards.
var rules = sync.OnceValues(memberRules)

func memberRules() (problem, item map[string]memberRule) {
	shared := map[string]memberRule{
		"type":            str(1, MaxURILen, nil),
		"title":           str(1, MaxTitleLen, nil),
		"status":          integer(400, 599),
		"detail":          str(1, MaxDetailLen, nil),
		"code":            str(1, MaxCodeLen, ValidCode),
		"category":        str(1, 64, func(s string) bool { return Category(s).Valid() }),
		"severity":        str(1, 64, func(s string) bool { return Severity(s).Valid() }),
		"retryable":       boolean,
		"retry_after_ms":  integer(0, 1<<53),
		"field":           str(0, MaxFieldLen, nil),
		"allowed_values":  encodedSize(MaxValueLen),
		"suggested_value": encodedSize(MaxValueLen),
		"hint":            str(0, MaxHintLen, nil),
		"human_hint":      str(0, MaxHintLen, nil),
		"suggestions":     list(nil),
		"actions":         list(ValidAction),
		"docs_url":        str(0, MaxURILen, isHTTPURL),
		"related_codes":   list(ValidCode),
		"details":         object(MaxObjectLen),
		"example_request": encodedSize(MaxObjectLen),
		"retry_policy": fields(map[string]memberRule{
			"strategy": str(1, MaxNameLen, func(s string) bool {
				return s == string(StrategyExponential) || s == string(StrategyRetryAfter)
			}),
			"base_ms":              integer(0, 1<<53),
			"max_attempts":         integer(1, maxCount),
			"idempotency_required": boolean,
		}, "strategy", "base_ms", "max_attempts", "idempotency_required"),
		"intent": fields(map[string]memberRule{
			"operation":   str(0, MaxIntentFieldLen, nil),
			"resource_id": str(0, MaxIntentFieldLen, nil),
			"state":       str(0, MaxIntentFieldLen, nil),
			"recovery":    str(0, MaxIntentFieldLen, nil),
		}, "operation"),
		"tool": str(0, MaxNameLen, nil),
		"violations": listOf(MaxViolations, fields(map[string]memberRule{
			"field":           str(0, MaxFieldLen, nil),
			"reason":          str(1, MaxReasonLen, nil),
			"allowed_values":  encodedSize(MaxValueLen),
			"suggested_value": encodedSize(MaxValueLen),
		}, "field", "reason")),
		"upstream": fields(map[string]memberRule{
			"vendor":     str(0, MaxNameLen, nil),
			"status":     integer(100, 599),
			"code":       str(0, MaxNameLen, nil),
			"request_id": str(1, MaxIDLen, ValidRequestID),
			"attempts":   integer(1, maxCount),
		}, "vendor"),
	}
	item = map[string]memberRule{"index": integer(0, maxCount)}
	problem = map[string]memberRule{
		"instance":   str(0, MaxURILen, nil),
		"trace_id":   str(32, 32, ValidTraceID),
		"request_id": str(1, MaxIDLen, ValidRequestID),
		"errors":     items,
	}
	for k, r := range shared {
		item[k] = r
		problem[k] = r
	}
	return problem, item
}

var requiredMembers = []string{"type", "title", "status", "detail", "code", "category", "severity", "retryable"}

// object checks a problem object, or an item of a batch when item is true.
func (v *validator) object(path string, m map[string]any, item bool) {
	rules := v.problem
	required := append(requiredMembers[:len(requiredMembers):len(requiredMembers)], "request_id")
	if item {
		rules, required = v.item, append(requiredMembers[:len(requiredMembers):len(requiredMembers)], "index")
	}
	for _, name := range required {
		if _, ok := m[name]; !ok {
			v.fail(path, "required member %q is missing", name)
		}
	}
	names := make([]string, 0, len(m))
	for name := range m {
		names = append(names, name)
	}
	slices.Sort(names)
	for _, name := range names {
		rule, known := rules[name]
		if !known {
			v.fail(path, "unknown member %q", truncateForError(name))
			continue
		}
		rule(v, join(path, name), m[name])
	}
	retryable, _ := m["retryable"].(bool)
	category, _ := m["category"].(string)
	if retryable && !Category(category).CanRetry() {
		v.fail(path, "retryable is true but category %q cannot be retried", truncateForError(category))
	}
	if _, hasDelay := m["retry_after_ms"]; retryable && category == string(CategoryRateLimit) && !hasDelay {
		v.fail(path, "a retryable rate_limit error must carry retry_after_ms")
	}
	if _, hasPolicy := m["retry_policy"]; hasPolicy && !retryable {
		v.fail(path, "retry_policy is present on an error that is not retryable")
	}
}

func join(path, name string) string {
	if path == "" {
		return name
	}
	return path + "." + name
}

func str(minLen, maxLen int, valid func(string) bool) memberRule {
	return func(v *validator, path string, value any) {
		s, ok := value.(string)
		switch {
		case !ok:
			v.fail(path, "must be a string")
		case len(s) < minLen || len(s) > maxLen:
			v.fail(path, "length %d is outside %d..%d", len(s), minLen, maxLen)
		case valid != nil && !valid(s):
			v.fail(path, "invalid value %q", truncateForError(s))
		}
	}
}

func integer(lo, hi int64) memberRule {
	return func(v *validator, path string, value any) {
		n, ok := value.(json.Number)
		i, err := n.Int64()
		if !ok || err != nil {
			v.fail(path, "must be an integer")
			return
		}
		if i < lo || i > hi {
			v.fail(path, "%d is outside %d..%d", i, lo, hi)
		}
	}
}

func boolean(v *validator, path string, value any) {
	if _, ok := value.(bool); !ok {
		v.fail(path, "must be a boolean")
	}
}

func list(valid func(string) bool) memberRule {
	entry := str(1, MaxListItemLen, valid)
	return func(v *validator, path string, value any) {
		a, ok := value.([]any)
		if !ok || len(a) > MaxListLen {
			v.fail(path, "must be an array of at most %d strings", MaxListLen)
			return
		}
		for i, x := range a {
			entry(v, fmt.Sprintf("%s[%d]", path, i), x)
		}
	}
}

func encodedSize(max int) memberRule {
	return func(v *validator, path string, value any) {
		b, err := json.Marshal(value)
		if err != nil || len(b) > max {
			v.fail(path, "encodes to more than %d bytes", max)
		}
	}
}

func object(max int) memberRule {
	size := encodedSize(max)
	return func(v *validator, path string, value any) {
		if _, ok := value.(map[string]any); !ok {
			v.fail(path, "must be an object")
			return
		}
		size(v, path, value)
	}
}

func fields(rules map[string]memberRule, required ...string) memberRule {
	return func(v *validator, path string, value any) {
		m, ok := value.(map[string]any)
		if !ok {
			v.fail(path, "must be an object")
			return
		}
		for _, name := range required {
			if _, ok := m[name]; !ok {
				v.fail(path, "required member %q is missing", name)
			}
		}
		for name, x := range m {
			rule, known := rules[name]
			if !known {
				v.fail(path, "unknown member %q", truncateForError(name))
				continue
			}
			rule(v, join(path, name), x)
		}
	}
}

// listOf checks an array of at most max entries, each by rule.
func listOf(max int, rule memberRule) memberRule {
	return func(v *validator, path string, value any) {
		a, ok := value.([]any)
		if !ok || len(a) > max {
			v.fail(path, "must be an array of at most %d entries", max)
			return
		}
		for i, x := range a {
			rule(v, fmt.Sprintf("%s[%d]", path, i), x)
		}
	}
}

func items(v *validator, path string, value any) {
	a, ok := value.([]any)
	if !ok || len(a) > MaxItems {
		v.fail(path, "must be an array of at most %d objects", MaxItems)
		return
	}
	for i, x := range a {
		p := fmt.Sprintf("%s[%d]", path, i)
		m, ok := x.(map[string]any)
		if !ok {
			v.fail(p, "must be an object")
			continue
		}
		v.object(p, m, true)
	}
}
