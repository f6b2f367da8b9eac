package toolerrconnect

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestMaskCards(t *testing.T) {
	cases := []struct{ in, want string }{
		{"card 4242424242424242 declined", "card [card ending 4242] declined"},
		{"card 4242 4242 4242 4242", "card [card ending 4242]"},
		{"pan 5555-5555-5555-4444.", "pan [card ending 4444]."},
		{"two 4111111111111111 and 378282246310005", "two [card ending 1111] and [card ending 0005]"},
		{"order 4242424242424241 stays", "order 4242424242424241 stays"}, // not Luhn-valid
		{"id a4242424242424242 stays", "id a4242424242424242 stays"},     // part of a token
		{"ts 1700000000000 short", "ts 1700000000000 short"},
		{"no digits", "no digits"},
		{"", ""},
	}
	for _, tc := range cases {
		assert.Equal(t, tc.want, maskCards(tc.in), tc.in)
	}
}
