package argcheck_test

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/argcheck"
)

// TestDecodeError: each failure encoding/json gives a binder becomes
// VALIDATION_FAILED naming what the client got wrong, never the decoder's
// own words.
func TestDecodeError(t *testing.T) {
	type args struct {
		Limit int `json:"limit"`
		Sub   struct {
			NItems uint `json:"n_items"`
		} `json:"sub"`
		Tags []string `json:"tags"`
	}
	decode := func(body string, strict bool) error {
		d := json.NewDecoder(strings.NewReader(body))
		if strict {
			d.DisallowUnknownFields()
		}
		var a args
		return d.Decode(&a)
	}
	cases := []struct {
		name, body string
		strict     bool
		field      string
		allowed    any
		detail     string
	}{
		{"type at the top", `{"limit":"ten"}`, false, "/limit", map[string]any{"type": "integer"}, "limit must be an integer, not a string."},
		{"type nested", `{"sub":{"n_items":-1}}`, false, "/sub/n_items", map[string]any{"type": "integer", "minimum": 0}, "sub/n_items must be an integer of 0 or more."},
		{"a fraction", `{"limit":1.5}`, false, "/limit", map[string]any{"type": "integer"}, "limit must be an integer, not a fraction."},
		{"an exponent", `{"limit":1e400}`, false, "/limit", map[string]any{"type": "integer"}, "limit must be an integer."},
		{"out of range", `{"limit":99999999999999999999}`, false, "/limit", map[string]any{"type": "integer"}, "limit must be an integer."},
		{"an array expected", `{"tags":"a"}`, false, "/tags", map[string]any{"type": "array"}, "tags must be an array, not a string."},
		{"the whole value", `[1]`, false, "", map[string]any{"type": "object"}, "The arguments must be an object, not an array."},
		{"syntax", `{"limit":}`, false, "", nil, "The request body is not valid JSON (at byte 10)."},
		{"empty", ``, false, "", nil, "The request body is empty."},
		{"truncated", `{"limit":1`, false, "", nil, "The request body ends before its JSON value does."},
		{"unknown property", `{"limti":1}`, true, "", nil, `The arguments hold a property the tool does not take: "limti".`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := decode(c.body, c.strict)
			require.Error(t, err)
			e, ok := argcheck.DecodeError(nil, err)
			require.True(t, ok)
			assert.Equal(t, toolerr.CodeValidationFailed, e.Code)
			assert.Equal(t, c.field, e.Field)
			assert.Equal(t, c.allowed, e.AllowedValues)
			assert.Equal(t, c.detail, e.Detail)
			assert.NotContains(t, e.Detail, "json:")
			assert.NotEmpty(t, e.Violations)
			assert.ErrorIs(t, e, err, "the decoder's error is the cause, for the log")
			require.NoError(t, toolerr.Validate(e.WithRequestID("r1").AppendJSON(nil)))
		})
	}
	_, ok := argcheck.DecodeError(nil, errors.New("pq: connection refused"))
	assert.False(t, ok, "not a decoder's failure")
	_, ok = argcheck.DecodeError(nil, nil)
	assert.False(t, ok)
}

// FuzzDecodeError: whatever body a binder decodes, the error of its
// failure is a valid VALIDATION_FAILED whose text holds none of the body's
// bytes past the field's own name (a secret sent in a value never comes
// back in the detail).
func FuzzDecodeError(f *testing.F) {
	type args struct {
		Limit int     `json:"limit"`
		Rate  float64 `json:"rate"`
		Name  string  `json:"name"`
		Sub   struct {
			N uint `json:"n"`
		} `json:"sub"`
		Tags []string `json:"tags"`
	}
	f.Fuzz(func(t *testing.T, body []byte, strict bool) {
		d := json.NewDecoder(strings.NewReader(string(body)))
		if strict {
			d.DisallowUnknownFields()
		}
		var a args
		err := d.Decode(&a)
		if err == nil {
			return
		}
		e, ok := argcheck.DecodeError(nil, err)
		if !ok {
			return
		}
		if e.Code != toolerr.CodeValidationFailed {
			t.Fatalf("code %s", e.Code)
		}
		if verr := toolerr.Validate(e.WithRequestID("r1").AppendJSON(nil)); verr != nil {
			t.Fatalf("invalid rendering: %v", verr)
		}
		if strings.Contains(e.Detail, "sk_live_") && !strings.Contains(e.Detail, "unknown property") && !strings.Contains(e.Detail, "does not take") {
			t.Fatalf("a value's text in the detail: %q", e.Detail)
		}
	})
}

// TestDecodeErrorHintsNeverInviteAGuess: a value Go's decoder refuses has
// no repair here, so the hint says to ask the user; an unknown property
// is renamed or asked about, never dropped.
func TestDecodeErrorHintsNeverInviteAGuess(t *testing.T) {
	type args struct {
		Qty int `json:"qty"`
	}
	var a args
	err := json.Unmarshal([]byte(`{"qty":"three"}`), &a)
	e, ok := argcheck.DecodeError(nil, err)
	require.True(t, ok)
	assert.Contains(t, e.Hint, "otherwise ask the user for it")

	dec := json.NewDecoder(strings.NewReader(`{"qty":3,"infants":1}`))
	dec.DisallowUnknownFields()
	e, ok = argcheck.DecodeError(nil, dec.Decode(&a))
	require.True(t, ok)
	assert.Contains(t, e.Hint, `ask the user where it belongs. Never drop it.`)
	assert.NotContains(t, e.Hint, "Remove")
}
