package sanitize

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// independentCase is one line of the independent attacker's corpus in
// testdata/payment/independent: written from the public contract only,
// without reading the payment or personal-data rules.
type independentCase struct {
	ID      string         `json:"id"`
	Label   string         `json:"label"`
	Kind    string         `json:"kind"`
	Form    string         `json:"form"`
	Text    string         `json:"text"`
	Secrets []string       `json:"secrets"`
	Keep    []string       `json:"keep"`
	Tokens  map[string]int `json:"tokens"`
}

// readIndependentCases reads one JSON-lines file of an independent
// corpus, testdata/payment/dir/name.
func readIndependentCases(t *testing.T, dir, name string) []independentCase {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "payment", dir, name))
	if err != nil {
		t.Fatalf("open %s: %v", name, err)
	}
	defer f.Close()
	var cases []independentCase
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 0, 64<<10), 1<<20)
	for line := 1; sc.Scan(); line++ {
		if strings.TrimSpace(sc.Text()) == "" {
			continue
		}
		var c independentCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s:%d: %v", name, line, err)
		}
		if c.ID == "" || c.Text == "" {
			t.Fatalf("%s:%d: case without id or text", name, line)
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatalf("read %s: %v", name, err)
	}
	return cases
}

// maskedProblems lists why out is not a correct masking of c: a secret that
// survived, a kept string that did not, a token seen the wrong number of
// times, nothing counted under kind, or a second Clean that changes out.
func maskedProblems(s *Sanitizer, c independentCase, out string, rep Report, kind Kind) []string {
	var problems []string
	for _, sec := range c.Secrets {
		if strings.Contains(out, sec) {
			problems = append(problems, "secret survived: "+strconv.Quote(sec))
		}
	}
	for _, k := range c.Keep {
		if !strings.Contains(out, k) {
			problems = append(problems, "kept string lost: "+strconv.Quote(k))
		}
	}
	for tok, want := range c.Tokens {
		if got := strings.Count(out, tok); got != want {
			problems = append(problems, "token "+tok+" seen "+strconv.Itoa(got)+" times, want "+strconv.Itoa(want))
		}
	}
	if rep.Count(kind) == 0 {
		problems = append(problems, "report counts no "+kind.String())
	}
	if again, _ := s.Clean(out); again != out {
		problems = append(problems, "not idempotent: Clean(out) = "+strconv.Quote(again))
	}
	return problems
}

// keptProblems lists why out is not a correct pass-through of c: a kept
// string that was lost, or something counted under kind.
func keptProblems(c independentCase, out string, rep Report, kind Kind) []string {
	var problems []string
	for _, k := range c.Keep {
		if !strings.Contains(out, k) {
			problems = append(problems, "kept string lost: "+strconv.Quote(k))
		}
	}
	if n := rep.Count(kind); n != 0 {
		problems = append(problems, "report counts "+strconv.Itoa(n)+" "+kind.String())
	}
	return problems
}

// TestIndependentPaymentCorpus runs the independent attacker's corpus with
// the default options: every true case must be masked (no secret survives,
// the kept strings do, the report counts payment data, and cleaning the
// output again changes nothing); every false case must pass the payment
// rules untouched. Every failing case is reported, with its output.
func TestIndependentPaymentCorpus(t *testing.T) {
	s := New()
	trueCases := readIndependentCases(t, "independent", "true.jsonl")
	falseCases := readIndependentCases(t, "independent", "false.jsonl")
	if len(trueCases) < 150 || len(falseCases) < 150 {
		t.Fatalf("corpus too small: %d true, %d false", len(trueCases), len(falseCases))
	}
	masked := 0
	for _, c := range trueCases {
		out, rep := s.Clean(c.Text)
		if p := maskedProblems(s, c, out, rep, KindPayment); len(p) > 0 {
			t.Errorf("%s (%s, %s): %s\n  in:  %q\n  out: %q", c.ID, c.Kind, c.Form, strings.Join(p, "; "), c.Text, out)
			continue
		}
		masked++
	}
	kept := 0
	for _, c := range falseCases {
		out, rep := s.Clean(c.Text)
		if p := keptProblems(c, out, rep, KindPayment); len(p) > 0 {
			t.Errorf("%s (%s, %s): %s\n  in:  %q\n  out: %q", c.ID, c.Kind, c.Form, strings.Join(p, "; "), c.Text, out)
			continue
		}
		kept++
	}

	ps := New(WithPersonalData(true))
	personal := readIndependentCases(t, "independent", "personal_independent.jsonl")
	pMasked, pTrue, pKept, pFalse := 0, 0, 0, 0
	for _, c := range personal {
		out, rep := ps.Clean(c.Text)
		var p []string
		switch c.Label {
		case "true":
			pTrue++
			p = maskedProblems(ps, c, out, rep, KindPersonalData)
			if len(p) == 0 {
				pMasked++
			}
		case "false":
			pFalse++
			p = keptProblems(c, out, rep, KindPersonalData)
			if len(p) == 0 {
				pKept++
			}
		default:
			t.Fatalf("%s: label %q is neither true nor false", c.ID, c.Label)
		}
		if len(p) > 0 {
			t.Errorf("%s (%s, %s): %s\n  in:  %q\n  out: %q", c.ID, c.Kind, c.Form, strings.Join(p, "; "), c.Text, out)
		}
	}
	if pTrue < 40 || pFalse < 20 {
		t.Fatalf("personal corpus too small: %d true, %d false", pTrue, pFalse)
	}
	t.Logf("true: %d/%d masked; false: %d/%d kept; personal: %d/%d masked, %d/%d kept",
		masked, len(trueCases), kept, len(falseCases), pMasked, pTrue, pKept, pFalse)
}
