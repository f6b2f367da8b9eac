package sanitize

import (
	"bufio"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// paymentCase is one line of a corpus under testdata/payment: a text, the
// kind of data it holds ("card", "iban", "ssn", "card-security-code", or
// the kind of look-alike it is in negatives.jsonl), and what Clean must
// return: want exactly, or an output that contains contains.
type paymentCase struct {
	Kind     string `json:"kind"`
	Form     string `json:"form"`
	Text     string `json:"text"`
	Want     string `json:"want"`
	Contains string `json:"contains"`
}

// readPaymentCorpus reads testdata/payment/name.
func readPaymentCorpus(t testing.TB, name string) []paymentCase {
	t.Helper()
	f, err := os.Open(filepath.Join("testdata", "payment", name))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var cases []paymentCase
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		var c paymentCase
		if err := json.Unmarshal(sc.Bytes(), &c); err != nil {
			t.Fatalf("%s: %v: %s", name, err, sc.Text())
		}
		cases = append(cases, c)
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return cases
}

// TestPaymentCorpusTrue cleans every true case of the corpus: the payment
// data is replaced (the exact output, or its placeholder), none of its
// middle digits survive, the report counts it, and cleaning the output
// changes nothing.
func TestPaymentCorpusTrue(t *testing.T) {
	s := New(WithHostname(""))
	total := 0
	for _, name := range []string{"cards.jsonl", "ibans.jsonl", "ssns.jsonl", "security_codes.jsonl"} {
		cases := readPaymentCorpus(t, name)
		total += len(cases)
		for _, c := range cases {
			out, rep := s.Clean(c.Text)
			switch {
			case c.Want != "" && out != c.Want:
				t.Errorf("%s %s %q:\n got %q\nwant %q", name, c.Form, c.Text, out, c.Want)
			case c.Contains != "" && !strings.Contains(out, c.Contains):
				t.Errorf("%s %s %q: got %q, want it to contain %q", name, c.Form, c.Text, out, c.Contains)
			}
			if rep.Count(KindPayment) == 0 || !rep.Redacted() {
				t.Errorf("%s %q: report %v counts no payment data", name, c.Text, rep)
			}
			if again, _ := s.Clean(out); again != out {
				t.Errorf("%s %q: not idempotent:\n%q\n%q", name, c.Text, out, again)
			}
			if red := s.Redact(c.Text); red == c.Text {
				t.Errorf("%s %q: Redact left it", name, c.Text)
			}
		}
	}
	if total < 100 {
		t.Fatalf("only %d true cases", total)
	}
}

// TestPaymentCorpusFalse runs the payment stage on every look-alike of
// negatives.jsonl: each stays as it is, and Clean counts no payment data.
func TestPaymentCorpusFalse(t *testing.T) {
	s := New(WithHostname(""))
	cases := readPaymentCorpus(t, "negatives.jsonl")
	if len(cases) < 100 {
		t.Fatalf("only %d false cases", len(cases))
	}
	for _, c := range cases {
		var rep Report
		if got := s.payment.redact(c.Text, &rep); got != c.Text {
			t.Errorf("%s: payment stage changed %q to %q", c.Kind, c.Text, got)
		}
		out, rep := s.Clean(c.Text)
		if rep.Count(KindPayment) != 0 {
			t.Errorf("%s: Clean(%q) = %q counts payment data", c.Kind, c.Text, out)
		}
		if again, _ := s.Clean(out); again != out {
			t.Errorf("%s %q: not idempotent:\n%q\n%q", c.Kind, c.Text, out, again)
		}
	}
}
