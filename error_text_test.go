package toolerr

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// planted is the secret every test below hides in an error; scrub is the
// stand-in for a sanitizer.
const planted = "sk_live_PLANTED"

func scrub(s string) string { return strings.ReplaceAll(s, planted, "[gone]") }

// tainted is an item of a struct type, walked in its JSON form.
type tainted struct {
	Name  string `json:"name"`
	Count int    `json:"count"`
}

// dirtyError returns an error with the planted secret in every string it
// can hold, at every depth.
func dirtyError() *Error {
	s := "x " + planted
	return &Error{
		Type: "https://docs.example.com/" + planted, Title: s, Status: 400, Detail: s, Instance: "/tools/" + planted,
		Code: "NOT_FOUND", Category: CategoryNotFound, Severity: SeverityError,
		RetryAfter: time.Second, Field: "/" + planted,
		AllowedValues:  []string{"a", s},
		SuggestedValue: tainted{Name: s, Count: 3},
		Hint:           s, HumanHint: s, Suggestions: []string{"ok", s}, Actions: []string{"use_fallback:" + planted},
		DocsURL: "https://docs.example.com/" + planted, RelatedCodes: []string{planted},
		Details: map[string]any{
			"balance":   json.Number("1152921504606846977"),
			"flag":      true,
			"nested":    map[string]any{"list": []any{1.5, s, map[string]any{planted: s}}},
			"raw":       json.RawMessage(`{"token":"` + planted + `"}`),
			"range":     Range{Minimum: 1, Maximum: s},
			"rangeptr":  &Range{Minimum: s},
			"typed_map": map[string]string{"k": s},
		},
		ExampleRequest: map[string]any{"to": s, "amount": 10},
		Violations:     []Violation{{Field: "/" + planted, Reason: s, AllowedValues: []any{s}, SuggestedValue: s}},
		Intent:         &Intent{Operation: s, ResourceID: s, State: s, Recovery: s},
		Tool:           s,
		Upstream:       &Upstream{Vendor: s, Status: 502, Code: s, RequestID: "req_" + planted},
		Errors:         []ItemError{{Index: 2, Err: &Error{Code: "NOT_FOUND", Detail: s, Hint: s, Details: map[string]any{"k": s}}}},
		TraceID:        planted,
		RequestID:      planted,
	}
}

// stringsOf returns every string reachable from v through exported
// fields, pointers, interfaces, slices, maps (keys too) and RawMessages.
func stringsOf(v reflect.Value, out *[]string) {
	switch v.Kind() {
	case reflect.String:
		*out = append(*out, v.String())
	case reflect.Pointer, reflect.Interface:
		if !v.IsNil() {
			stringsOf(v.Elem(), out)
		}
	case reflect.Struct:
		for i := range v.NumField() {
			if v.Type().Field(i).IsExported() {
				stringsOf(v.Field(i), out)
			}
		}
	case reflect.Slice, reflect.Array:
		if v.Type().Elem().Kind() == reflect.Uint8 {
			*out = append(*out, string(v.Bytes()))
			return
		}
		for i := range v.Len() {
			stringsOf(v.Index(i), out)
		}
	case reflect.Map:
		iter := v.MapRange()
		for iter.Next() {
			stringsOf(iter.Key(), out)
			stringsOf(iter.Value(), out)
		}
	}
}

func TestMapTextReachesEveryString(t *testing.T) {
	e := dirtyError()
	clean := e.MapText(scrub)

	var all []string
	stringsOf(reflect.ValueOf(clean), &all)
	for _, s := range all {
		assert.NotContains(t, s, planted)
	}
	// Every exported string field of the type is reached: a member added
	// to Error later fails here until MapText walks it.
	var before []string
	stringsOf(reflect.ValueOf(e), &before)
	n := 0
	for _, s := range before {
		if strings.Contains(s, planted) {
			n++
		}
	}
	assert.Greater(t, n, 30, "the fixture plants the secret widely")

	body := string(clean.AppendJSON(nil))
	assert.NotContains(t, body, "PLANTED")
	assert.Contains(t, body, "[gone]")
	require.NoError(t, Validate(clean.WithRequestID("req-1").AppendJSON(nil)))
}

func TestMapTextKeepsNonStringsAndTheReceiver(t *testing.T) {
	e := dirtyError()
	orig := dirtyError()
	c := e.MapText(scrub)
	assert.Equal(t, orig, e, "the receiver and its maps and slices are not modified")

	assert.Equal(t, json.Number("1152921504606846977"), c.Details["balance"], "numbers keep their exact text")
	assert.Equal(t, true, c.Details["flag"])
	assert.Equal(t, 1.5, c.Details["nested"].(map[string]any)["list"].([]any)[0])
	assert.Equal(t, 10, c.ExampleRequest.(map[string]any)["amount"])
	assert.Equal(t, 502, c.Upstream.Status)
	assert.Equal(t, time.Second, c.RetryAfter)
	assert.Equal(t, 2, c.Errors[0].Index)
	assert.Equal(t, map[string]any{"name": "x [gone]", "count": json.Number("3")}, c.SuggestedValue,
		"a struct is walked in its JSON form")
	assert.Equal(t, map[string]any{"token": "[gone]"}, c.Details["raw"], "a RawMessage is decoded and walked")
	assert.Equal(t, "req_[gone]", c.Upstream.RequestID)
}

func TestMapTextUnchangedIsSameError(t *testing.T) {
	e := Default().New(CodeNotFound, "order ord_123 not found").
		WithDetails(map[string]any{"order": "ord_123", "n": 2}).
		WithAllowedValues([]string{"a", "b"}).WithField("/order_id")
	assert.Same(t, e, e.MapText(scrub))
	assert.Same(t, e, e.MapText(nil))
	var nilErr *Error
	assert.Nil(t, nilErr.MapText(scrub))
}

func TestMapTextCodeThatIsNotACode(t *testing.T) {
	e := &Error{Code: "SK_LIVE_PLANTED", Category: CategoryNotFound}
	c := e.MapText(func(s string) string { return strings.ReplaceAll(s, "SK_LIVE_PLANTED", "[gone]") })
	assert.Equal(t, CodeInternal, c.Code)
}

func TestMapTextKeyCollisionsAreDeterministic(t *testing.T) {
	redact := func(s string) string {
		if strings.HasPrefix(s, "sk_") {
			return "[key]"
		}
		return s
	}
	e := &Error{Code: "NOT_FOUND", Details: map[string]any{"sk_b": 2, "sk_a": 1, "sk_c": 3, "[key]": 0}}
	for range 20 {
		c := e.MapText(redact)
		assert.Equal(t, map[string]any{"[key]": 0, "[key]#2": 1, "[key]#3": 2, "[key]#4": 3}, c.Details)
	}
}

// TestMapTextKeepsACleanKeysName: a key the filter leaves alone keeps its
// member, even when another key, sorted first, cleans to the same name
// (FuzzSanitizeError's " n" beside "n").
func TestMapTextKeepsACleanKeysName(t *testing.T) {
	e := &Error{Code: "NOT_FOUND", Details: map[string]any{" n": "text", "n": 1}}
	c := e.MapText(strings.TrimSpace)
	assert.Equal(t, map[string]any{"n": 1, "n#2": "text"}, c.Details)
	assert.Equal(t, c.Details, c.MapText(strings.TrimSpace).Details, "cleaning again changes nothing")
}

func TestMapTextBoundsDepthAndCycles(t *testing.T) {
	deep := any(planted)
	for range 200 {
		deep = []any{deep}
	}
	cyclic := []any{planted, nil}
	cyclic[1] = cyclic
	e := &Error{Code: "NOT_FOUND", ExampleRequest: deep, SuggestedValue: cyclic}
	c := e.MapText(scrub)
	body := string(c.AppendJSON(nil))
	assert.NotContains(t, body, planted)
	var all []string
	stringsOf(reflect.ValueOf(c.ExampleRequest), &all)
	assert.NotContains(t, strings.Join(all, ""), planted, "what is past the depth bound is dropped")
}

// TestMapTextAllocatesNothingWhenNothingChanges: an error with an upstream
// and an intent whose texts the filter keeps is returned as it is, with no
// allocation; one whose upstream text changes gets a new upstream, and the
// caller's is left alone.
func TestMapTextAllocatesNothingWhenNothingChanges(t *testing.T) {
	e := Default().New(CodeUpstreamUnavailable, "502 Bad Gateway").
		WithUpstream(Upstream{Vendor: "nginx", Status: 502, Code: "bad_gateway", RequestID: "req_1"}).
		WithIntent(Intent{Operation: "refund", ResourceID: "ch_1", State: "unknown", Recovery: "read first"})
	keep := func(s string) string { return s }
	if n := testing.AllocsPerRun(100, func() { _ = e.MapText(keep) }); n != 0 {
		t.Fatalf("MapText allocates %v times on an error it leaves unchanged", n)
	}
	assert.Same(t, e, e.MapText(keep))
	upper := func(s string) string {
		if s == "req_1" {
			return "REQ_1"
		}
		return s
	}
	got := e.MapText(upper)
	assert.Equal(t, "REQ_1", got.Upstream.RequestID)
	assert.Equal(t, "nginx", got.Upstream.Vendor)
	assert.Equal(t, "req_1", e.Upstream.RequestID)
	assert.Same(t, e.Intent, got.Intent, "an unchanged intent is shared")
}
