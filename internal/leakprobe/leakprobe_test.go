package leakprobe

import (
	"strings"
	"testing"
)

// TestFindSeesEveryPlantedValue: each probe's value, alone or inside
// other text, is found; text without one is not.
func TestFindSeesEveryPlantedValue(t *testing.T) {
	for _, p := range Probes() {
		if len(p.Marks) == 0 {
			t.Fatalf("%s has no marks", p.Name)
		}
		if name, _ := Find([]byte("x " + p.Value + " y")); name != p.Name {
			t.Errorf("Find of %s = %q", p.Name, name)
		}
		if !strings.Contains(Sentence(), p.Value) {
			t.Errorf("Sentence lacks %s", p.Name)
		}
	}
	if name, mark := Find([]byte("request failed; stripe live key [REDACTED:stripe-key]")); name != "" {
		t.Errorf("Find of redacted text = %q %q", name, mark)
	}
}
