package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// dockSource is the root package of the test module. Its line numbers
// are those of the profiles below.
const dockSource = `package dock

// Reached is reached.
func Reached() int {
	return 1
}

// Untested is not.
func Untested() int {
	return 2
}

// Crane lifts.
type Crane struct{}

// Lift is not reached.
func (c *Crane) Lift() int {
	return 3
}

type hidden struct{}

// Lift of an unexported type is not checked.
func (hidden) Lift() int { return 4 }

func helper() int { return 5 }
`

// dockProfile is a profile of the test module's tests: only Reached ran.
const dockProfile = `mode: set
example.com/dock/dock.go:4.20,6.2 1 1
example.com/dock/dock.go:9.21,11.2 1 0
example.com/dock/dock.go:17.28,19.2 1 0
example.com/dock/dock.go:24.26,24.38 1 0
example.com/dock/dock.go:26.19,26.31 1 0
`

// dockModule writes the test module to a temporary folder and returns it:
// the root package, a main package and a nested module, each with an
// exported function none of whose statements ran.
func dockModule(t *testing.T) string {
	t.Helper()
	root := t.TempDir()
	write(t, root, "go.mod", "module example.com/dock\n\ngo 1.26\n")
	write(t, root, "dock.go", dockSource)
	write(t, root, "dock_test.go", "package dock\n\nfunc TestOnly() {}\n")
	write(t, root, "cmd/crane/main.go", "package main\n\n// Run runs.\nfunc Run() { println(1) }\n\nfunc main() { Run() }\n")
	write(t, root, "nested/go.mod", "module example.com/dock/nested\n")
	write(t, root, "nested/nested.go", "package nested\n\n// Far is far.\nfunc Far() { println(1) }\n")
	write(t, root, "testdata/skip.go", "package skip\n\n// Skip is data.\nfunc Skip() { println(1) }\n")
	return root
}

// write writes text to the file name under root, making its folders.
func write(t *testing.T, root, name, text string) string {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// checkModule runs the checker over the test module with profile and allowlist
// (none when allow is ""), and returns whether it passed and its output.
func checkModule(t *testing.T, root, profile, allow string) (bool, string) {
	t.Helper()
	prof := write(t, t.TempDir(), "cover.out", profile)
	allowFile := ""
	if allow != "" {
		allowFile = write(t, t.TempDir(), "untested.allow", allow)
	}
	var out bytes.Buffer
	ok, err := run(&out, check{root: root, profiles: []string{prof}, allow: allowFile})
	if err != nil {
		t.Fatal(err)
	}
	return ok, out.String()
}

func TestFlagsUntestedExported(t *testing.T) {
	ok, out := checkModule(t, dockModule(t), dockProfile, "")
	if ok {
		t.Fatalf("passed with two untested exported functions:\n%s", out)
	}
	for _, want := range []string{"dock.Untested is exported", "dock.(*Crane).Lift is exported"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
	for _, never := range []string{"Reached", "hidden", "helper", "Run", "Far", "Skip", "TestOnly"} {
		if strings.Contains(out, never+" is") || strings.Contains(out, "."+never) {
			t.Errorf("%s reported:\n%s", never, out)
		}
	}
	if !strings.Contains(out, "3 exported functions and methods") {
		t.Errorf("counts the root package's three exported ones:\n%s", out)
	}
}

func TestHonoursAllowlist(t *testing.T) {
	root := dockModule(t)
	allow := "# The dock's allowlist.\n\ndock.Untested # reached only by a real crane\ndock.(*Crane).Lift   # same\n"
	if ok, out := checkModule(t, root, dockProfile, allow); !ok {
		t.Fatalf("failed with every untested name allowlisted:\n%s", out)
	}
	ok, out := checkModule(t, root, dockProfile, "dock.Untested # reached only by a real crane\n")
	if ok || !strings.Contains(out, "dock.(*Crane).Lift is exported") || strings.Contains(out, "dock.Untested is") {
		t.Fatalf("an allowlist of one name must fail on the other only:\n%s", out)
	}
}

func TestStaleAllowlistFails(t *testing.T) {
	root := dockModule(t)
	allow := "dock.Untested # r\ndock.(*Crane).Lift # r\ndock.Reached # r\ndock.Gone # r\n"
	ok, out := checkModule(t, root, dockProfile, allow)
	if ok {
		t.Fatalf("passed with stale entries:\n%s", out)
	}
	for _, want := range []string{"dock.Reached is tested now", "dock.Gone exists no more"} {
		if !strings.Contains(out, want) {
			t.Errorf("missing %q in:\n%s", want, out)
		}
	}
}

func TestAllowlistNeedsReasons(t *testing.T) {
	for _, bad := range []string{"dock.Untested\n", "dock.Untested #   \n", "dock.Untested # a\ndock.Untested # b\n", "dock Untested # a\n"} {
		p := write(t, t.TempDir(), "untested.allow", bad)
		if _, err := readAllowlist(p); err == nil {
			t.Errorf("%q read without an error", bad)
		}
	}
}

// TestMergedProfile: a block that one test binary ran and another did not
// (profile lines listed twice) counts as reached.
func TestMergedProfile(t *testing.T) {
	merged := dockProfile + "example.com/dock/dock.go:17.28,19.2 1 1\n"
	ok, out := checkModule(t, dockModule(t), merged, "dock.Untested # r\n")
	if !ok {
		t.Fatalf("Lift ran in one binary:\n%s", out)
	}
}

// TestMissingPackageIsUntested: a package the profile does not cover at
// all is untested, not skipped.
func TestMissingPackageIsUntested(t *testing.T) {
	ok, out := checkModule(t, dockModule(t), "mode: set\n", "")
	if ok || !strings.Contains(out, "dock.Reached is exported") {
		t.Fatalf("an uncovered package must be reported:\n%s", out)
	}
}

func TestBadProfile(t *testing.T) {
	for _, bad := range []string{"dock.go 1 1\n", "x/dock.go:4.20 1 1\n", "x/dock.go:4.x,6.2 1 1\n", "x/dock.go:4.20,6.2 1 many\n"} {
		p := write(t, t.TempDir(), "cover.out", "mode: set\n"+bad)
		if err := (coverage{}).read(p); err == nil {
			t.Errorf("%q read without an error", bad)
		}
	}
}
