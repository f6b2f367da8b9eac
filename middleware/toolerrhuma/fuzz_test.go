package toolerrhuma

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestFieldOf checks the field of each kind of huma location.
func TestFieldOf(t *testing.T) {
	cases := []struct {
		location, field string
		body            bool
	}{
		{"body", "", true},
		{"body.limit", "/limit", true},
		{"body.items[2].name", "/items/2/name", true},
		{"body[0]", "/0", true},
		{"body.a~b/c", "/a~0b~1c", true},
		{"query.limit", "query.limit", false},
		{"path.id", "path.id", false},
		{"header.X-Api-Version", "header.X-Api-Version", false},
		{"cookie.session", "cookie.session", false},
		{"", "", false},
		{"bodyguard", "bodyguard", false},
	}
	for _, tc := range cases {
		t.Run(tc.location, func(t *testing.T) {
			field, body := fieldOf(tc.location)
			assert.Equal(t, tc.field, field)
			assert.Equal(t, tc.body, body)
		})
	}
}

// FuzzFieldOf checks that any location (a body's property names are the
// client's) gives a field without panicking, a body field being a JSON
// pointer and a parameter never looking like one.
func FuzzFieldOf(f *testing.F) {
	for _, s := range []string{"body", "body.limit", "body.items[2].name", "query.q", "path.id", "body.a.b[", "body.`x.y`"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, location string) {
		field, body := fieldOf(location)
		if body && field != "" && !strings.HasPrefix(field, "/") {
			t.Fatalf("body field %q of %q is not a pointer", field, location)
		}
		if !body && field != location {
			t.Fatalf("parameter %q became %q", location, field)
		}
	})
}
