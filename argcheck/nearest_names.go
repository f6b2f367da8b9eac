package argcheck

import "github.com/toolerr/toolerr/internal/nearest"

// NearestNames returns the candidates closest to name, best first, at most
// max of them (max <= 0 means 5), and suggested, the one candidate name
// most plausibly meant when exactly one is (the same rule as argcheck's
// repairs: equal but for case, else equal once case and separators are
// ignored, else within a small edit distance with a single best match),
// else "".
//
// A candidate is close when, with case and the separators "-", "_", " "
// and "." ignored, it is within a few edits of name (one edit for names of
// 3 to 5 letters, two up to 11, three from 12); or when their words (split
// at separators, slashes and camelCase) are the same but for order
// ("order_search" and "search_orders"), or the words of one are all among
// those of the other and make at least two fifths of its letters
// ("refund" and "refund_order"). Nothing else is close: the list may be
// empty, and is never padded with unrelated names. A suggested name is
// always first. The order does not depend on the order of candidates, and
// the cost is bounded whatever the input: a name or candidate over 256
// bytes is never close, and only the first 1024 candidates are measured.
func NearestNames(name string, candidates []string, max int) (near []string, suggested string) {
	return nearest.Names(name, candidates, max)
}
