package classify

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestFieldPointer(t *testing.T) {
	for in, want := range map[string]string{
		"":                   "",
		"email":              "/email",
		"order.quantity":     "/order/quantity",
		"order.items[2].sku": "/order/items/2/sku",
		"items[0][name]":     "/items/0/name",
		`labels["team"]`:     "/labels/team",
		"labels.`a.b`.value": "/labels/a.b/value",
		"/already/a/pointer": "/already/a/pointer",
		"a~b.c/d":            "/a~0b/c~1d",
		"unclosed[3":         "/unclosed/3",
		"unclosed.`key":      "/unclosed/key",
		"double..dot":        "/double/dot",
	} {
		assert.Equal(t, want, FieldPointer(in), in)
	}
}

// FuzzFieldPointer: any path converts without panicking, to "" or a
// pointer, in bounded work.
func FuzzFieldPointer(f *testing.F) {
	for _, s := range []string{"a.b[0].c", "labels.`x.y`", "[[[", "``", "a]b", "~/"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, path string) {
		p := FieldPointer(path)
		if path != "" && (p == "" && path[0] != '/' && !onlySeparators(path)) {
			t.Fatalf("%q became empty", path)
		}
		if p != "" && p[0] != '/' {
			t.Fatalf("%q became %q, not a pointer", path, p)
		}
		if len(p) > 3*len(path)+2 {
			t.Fatalf("%q grew to %d bytes", path, len(p))
		}
	})
}

// onlySeparators reports whether path has nothing but dots.
func onlySeparators(path string) bool {
	for i := 0; i < len(path); i++ {
		if path[i] != '.' {
			return false
		}
	}
	return true
}
