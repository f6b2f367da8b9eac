package main

import (
	"bytes"
	"strings"
	"testing"
)

// dockAllowed allowlists the root package's two untested names, so that
// the nested modules' decide the outcome.
const dockAllowed = "dock.Untested # r\ndock.(*Crane).Lift # r\n"

// nestedDock adds to the test module a module nested in the nested one,
// with a path of its own that does not extend its parents'.
func nestedDock(t *testing.T) string {
	t.Helper()
	root := dockModule(t)
	write(t, root, "nested/deeper/go.mod", "module other.org/deep\n")
	write(t, root, "nested/deeper/deep.go", "package deep\n\n// Deep is deep.\nfunc Deep() { println(1) }\n")
	write(t, root, "nested/deeper/cmd/tool/main.go", "package main\n\n// Tool runs.\nfunc Tool() { println(1) }\n\nfunc main() { Tool() }\n")
	write(t, root, "nested/testdata/data.go", "package data\n\n// Data is data.\nfunc Data() { println(1) }\n")
	return root
}

// checkNested runs the checker with -nested over root, with one profile
// file for each of profiles.
func checkNested(t *testing.T, root, allow string, profiles ...string) (bool, string) {
	t.Helper()
	c := check{root: root, nested: true, allow: write(t, t.TempDir(), "untested.allow", allow)}
	for _, p := range profiles {
		c.profiles = append(c.profiles, write(t, t.TempDir(), "cover.out", p))
	}
	var out bytes.Buffer
	ok, err := run(&out, c)
	if err != nil {
		t.Fatal(err)
	}
	return ok, out.String()
}

// The nested modules' profiles: Far's and Deep's bodies, run or not.
const (
	farRan    = "mode: atomic\nexample.com/dock/nested/nested.go:4.12,4.25 1 3\n"
	farNot    = "mode: atomic\nexample.com/dock/nested/nested.go:4.12,4.25 1 0\n"
	deepRan   = "mode: atomic\nother.org/deep/deep.go:4.13,4.26 1 1\n"
	deepNotes = "mode: atomic\nother.org/deep/deep.go:4.13,4.26 1 0\n"
)

// TestNestedModulesChecked: with -nested, each nested module's exported
// functions are checked against its own profile, named by their folder
// under the root, whatever the nested module's path; main packages and
// testdata stay out.
func TestNestedModulesChecked(t *testing.T) {
	root := nestedDock(t)
	ok, out := checkNested(t, root, dockAllowed, dockProfile, farNot, deepNotes)
	if ok {
		t.Fatalf("passed with the nested modules' functions untested:\n%s", out)
	}
	for _, want := range []string{"dock/nested.Far is exported", "dock/nested/deeper.Deep is exported", "5 exported functions and methods"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	for _, never := range []string{"Tool", "Data", "Run"} {
		if strings.Contains(out, "."+never) {
			t.Errorf("%s reported:\n%s", never, out)
		}
	}
	if ok, out := checkNested(t, root, dockAllowed, dockProfile, farRan, deepRan); !ok {
		t.Fatalf("failed with every nested function run in its module's profile:\n%s", out)
	}
}

// TestNestedModuleWithoutProfile: a nested module whose tests gave no
// profile is untested, not skipped.
func TestNestedModuleWithoutProfile(t *testing.T) {
	ok, out := checkNested(t, nestedDock(t), dockAllowed, dockProfile, farRan)
	if ok || !strings.Contains(out, "dock/nested/deeper.Deep is exported") || strings.Contains(out, "nested.Far is") {
		t.Fatalf("only Deep, whose module gave no profile, must be reported:\n%s", out)
	}
}

// TestNestedAllowlist: a nested module's function is allowlisted by its
// folder's name, and an entry for it turns stale when its test comes.
func TestNestedAllowlist(t *testing.T) {
	root := nestedDock(t)
	allow := dockAllowed + "dock/nested.Far # reached only by a real far\ndock/nested/deeper.Deep # r\n"
	if ok, out := checkNested(t, root, allow, dockProfile, farNot, deepNotes); !ok {
		t.Fatalf("failed with every untested name allowlisted:\n%s", out)
	}
	ok, out := checkNested(t, root, allow, dockProfile, farRan, deepNotes)
	if ok || !strings.Contains(out, "dock/nested.Far is tested now") {
		t.Fatalf("a nested entry whose function runs must be stale:\n%s", out)
	}
}

// TestWithoutNestedFlag: without -nested the nested modules' entries in
// the allowlist exist no more, since their functions are not looked at.
func TestWithoutNestedFlag(t *testing.T) {
	ok, out := checkModule(t, nestedDock(t), dockProfile, dockAllowed+"dock/nested.Far # r\n")
	if ok || !strings.Contains(out, "dock/nested.Far exists no more") {
		t.Fatalf("without -nested a nested entry must be stale:\n%s", out)
	}
}

// TestProfilesMerged: a block one profile ran and another did not ran.
func TestProfilesMerged(t *testing.T) {
	if ok, out := checkNested(t, nestedDock(t), dockAllowed, dockProfile, farNot, farRan, deepRan); !ok {
		t.Fatalf("Far ran in one of two profiles:\n%s", out)
	}
}
