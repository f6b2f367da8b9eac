package mysqlerr

import "testing"

// TestUnknownOutcomeRowsAreMapped: a number whose statement may have run
// has a row of its own, so its code and its retry go together.
func TestUnknownOutcomeRowsAreMapped(t *testing.T) {
	for number := range unknownOutcome {
		if _, ok := table[number]; !ok {
			t.Errorf("%s may have taken effect but has no row", number)
		}
	}
}
