package sdkpath

import (
	"errors"
	"fmt"
	"testing"
)

// loop is an error whose Unwrap returns itself.
type loop struct{}

func (l *loop) Error() string { return "loop" }
func (l *loop) Unwrap() error { return l }

func TestFind(t *testing.T) {
	target := errors.New("target")
	is := func(e error) bool { return e == target }
	for name, err := range map[string]error{
		"itself":  target,
		"wrapped": fmt.Errorf("a: %w", fmt.Errorf("b: %w", target)),
		"joined":  errors.Join(errors.New("x"), fmt.Errorf("c: %w", target)),
	} {
		if !Find(err, is) {
			t.Errorf("%s: not found", name)
		}
	}
	for name, err := range map[string]error{
		"nil":   nil,
		"other": fmt.Errorf("a: %w", errors.New("b")),
		"cycle": &loop{}, // bounded by MaxChain
	} {
		if Find(err, is) {
			t.Errorf("%s: found", name)
		}
	}

	// Breadth first: the shallower of two matches is found.
	deep, shallow := errors.New("deep"), errors.New("shallow")
	var got error
	Find(errors.Join(fmt.Errorf("x: %w", deep), shallow), func(e error) bool {
		if e == deep || e == shallow {
			got = e
			return true
		}
		return false
	})
	if got != shallow {
		t.Errorf("found %v first; want the shallow match", got)
	}

	// At most MaxChain errors are looked at.
	visited := 0
	Find(&loop{}, func(error) bool { visited++; return false })
	if visited != MaxChain {
		t.Errorf("visited %d errors; want %d", visited, MaxChain)
	}
}

func TestFindAllocatesNothing(t *testing.T) {
	err := fmt.Errorf("a: %w", fmt.Errorf("b: %w", errors.New("c")))
	if n := testing.AllocsPerRun(100, func() { Find(err, func(error) bool { return false }) }); n != 0 {
		t.Errorf("%v allocations", n)
	}
}
