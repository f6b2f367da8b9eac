package sdkmajors

import (
	"strings"
	"testing"
)

// TestLoadEveryTable: each SDK vendor's table loads, names its vendor,
// and holds error cases that each want a code; an unknown vendor's is an
// error.
func TestLoadEveryTable(t *testing.T) {
	for _, vendor := range []string{"stripe", "github", "anthropic", "openai"} {
		tab, err := Load(vendor)
		if err != nil {
			t.Fatalf("Load(%q): %v", vendor, err)
		}
		if tab.Vendor != vendor {
			t.Errorf("Load(%q).Vendor = %q", vendor, tab.Vendor)
		}
		for _, c := range tab.Cases {
			if c.Status < 400 || c.Want.Code == "" || c.Name == "" {
				t.Errorf("%s %q: status %d, code %q: not an error case", vendor, c.Name, c.Status, c.Want.Code)
			}
		}
	}
	if _, err := Load("acme"); err == nil || !strings.Contains(err.Error(), "acme") {
		t.Fatalf("Load(acme) = %v, want an error naming it", err)
	}
}
