package sdkpath

import "errors"

// MaxChain bounds the errors of a chain [Find] looks at: a cycle of
// Unwrap methods would otherwise never end.
const MaxChain = 32

// Find calls match on the errors of err's chain, breadth first (an error,
// then what its Unwrap() error or Unwrap() []error returns), at most
// MaxChain of them, until match reports true, and reports whether it did.
// It allocates nothing for a chain of up to eight errors.
func Find(err error, match func(error) bool) bool {
	var backing [8]error
	queue := append(backing[:0], err)
	for n := 0; len(queue) > 0 && n < MaxChain; n++ {
		e := queue[0]
		queue = queue[1:]
		if e == nil {
			continue
		}
		if match(e) {
			return true
		}
		switch u := e.(type) {
		case interface{ Unwrap() []error }:
			queue = append(queue, u.Unwrap()...)
		default:
			if next := errors.Unwrap(e); next != nil {
				queue = append(queue, next)
			}
		}
	}
	return false
}
