package toolerrgin

import (
	"strings"
	"testing"
)

// FuzzFieldPath: a validator namespace carries map keys the client sent
// ("Args.Labels[<key>]"); whatever it holds, the field is a JSON pointer
// whose segments are escaped, and nothing panics.
func FuzzFieldPath(f *testing.F) {
	for _, s := range []string{"bindArgs.Status", "bindArgs.Items[0].Sku", "A.Labels[a/b~c].V", "A.M[x][y]", "[0].Sku", "A.B[", ".", ""} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, ns string) {
		p, steps := fieldPath(nil, "/3", ns, ns)
		if steps != nil {
			t.Fatalf("steps without a type: %v", steps)
		}
		if !strings.HasPrefix(p, "/3") {
			t.Fatalf("prefix lost: %q", p)
		}
		segs := parseNamespace(ns)
		if len(segs) > 1 && !segs[0].index {
			segs = segs[1:]
		}
		if got := strings.Count(p, "/") - 1; got != len(segs) {
			t.Fatalf("%q: %d separators for %d segments", p, got, len(segs))
		}
		for i := 0; i < len(p); i++ {
			if p[i] == '~' && (i+1 == len(p) || (p[i+1] != '0' && p[i+1] != '1')) {
				t.Fatalf("%q: a bare ~", p)
			}
		}
	})
}
