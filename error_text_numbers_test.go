package toolerr

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"

	"github.com/toolerr/toolerr/middleware/sanitize"
)

// TestMapTextCleansCardsInNumbers: a card number, its security code and a
// password that a handler put in details or suggested_value as JSON
// numbers are cleaned by the real sanitizer as the text they render as;
// numbers no rule reads keep their type and value.
func TestMapTextCleansCardsInNumbers(t *testing.T) {
	clean := sanitize.New().CleanText
	e := Default().New(CodeValidationFailed, "card declined").WithDetails(map[string]any{
		"card":        4242424242424242,
		"card_json":   json.Number("4000056655665556"),
		"card_float":  float64(5555555555554444),
		"cvc":         123,
		"password":    int64(84512093),
		"order_id":    4242424242424241, // fails the Luhn check
		"amount":      1999,
		"quantity":    2,
		"ratio":       1.5,
		"negative":    -4242424242424242,
		"list":        []any{4242424242424242, 17},
		"created_at":  1732700000000, // epoch milliseconds
		"nested_card": map[string]any{"number": uint64(4242424242424242)},
	}).WithSuggestedValue(4242424242424242)
	c := e.MapText(clean)
	d := c.Details
	assert.Equal(t, "[card ending 4242]", d["card"])
	assert.Equal(t, "[card ending 5556]", d["card_json"])
	assert.Equal(t, "[card ending 4444]", d["card_float"])
	assert.Equal(t, "[REDACTED:card-security-code]", d["cvc"], "the key says what the number is")
	assert.Equal(t, "[REDACTED:password]", d["password"])
	assert.Equal(t, []any{"[card ending 4242]", 17}, d["list"])
	assert.Equal(t, map[string]any{"number": "[card ending 4242]"}, d["nested_card"])
	assert.Equal(t, "[card ending 4242]", c.SuggestedValue)
	for k, want := range map[string]any{"order_id": 4242424242424241, "amount": 1999, "quantity": 2,
		"ratio": 1.5, "negative": -4242424242424242, "created_at": 1732700000000} {
		assert.Equal(t, want, d[k], "%s keeps its number", k)
	}
	assert.Equal(t, 4242424242424242, e.Details["card"], "the receiver is not modified")
}

func TestIntegerText(t *testing.T) {
	for _, tc := range []struct {
		v    any
		want string
		ok   bool
	}{
		{int8(12), "12", true},
		{uint16(65535), "65535", true},
		{int64(-1), "", false},
		{float32(1024), "1024", true},
		{float64(4242424242424242), "4242424242424242", true},
		{2.5, "", false},
		{1e21, "", false},
		{json.Number("0042"), "0042", true},
		{json.Number("-12"), "", false},
		{json.Number("1.5e3"), "", false},
		{json.Number(""), "", false},
		{"123", "", false},
	} {
		got, ok := integerText(tc.v)
		assert.Equal(t, tc.want, got, "%#v", tc.v)
		assert.Equal(t, tc.ok, ok, "%#v", tc.v)
	}
}
