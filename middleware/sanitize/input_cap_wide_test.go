package sanitize

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestInputCapThroughAWideCardNumber: a text cut at the input cap in the
// middle of a card number written in full-width digits keeps none of its
// groups: the twelve digits before the cut are not a card number to the
// card rule any more, yet they are twelve digits of one. (Found by the
// unmapped sampler's hostile corpus, corpus entry u-114.)
func TestInputCapThroughAWideCardNumber(t *testing.T) {
	const card = "カード番号：４４１４ １５８６ ５４２０ ０５８１"
	// White space collapses, so what is left of the card after the cap is
	// what the output shows; the cap falls in the last group.
	filler := strings.Repeat(" ", DefaultMaxInput-60)
	text := filler + card
	out := New(WithHostname("")).CleanText(text)
	for _, group := range []string{"４４１４", "１５８６", "５４２０"} {
		assert.NotContains(t, out, group)
	}
	whole := New(WithHostname("")).CleanText(card)
	assert.Contains(t, whole, "[card ending 0581]", "uncut, the number is redacted")
}
