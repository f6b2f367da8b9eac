package sanitize

import (
	"strings"
	"testing"
)

// secondCorpusTally counts, for one group of cases, how many passed.
type secondCorpusTally struct{ passed, total int }

// checkSecondCorpusCase reports every problem of one case (masked when
// mask is true, passed through otherwise) and says whether it passed.
func checkSecondCorpusCase(t *testing.T, s *Sanitizer, c independentCase, mask bool, kind Kind) bool {
	t.Helper()
	out, rep := s.Clean(c.Text)
	var problems []string
	if mask {
		problems = maskedProblems(s, c, out, rep, kind)
	} else {
		problems = keptProblems(c, out, rep, kind)
	}
	if len(problems) > 0 {
		t.Errorf("%s (%s, %s): %s\n  in:  %q\n  out: %q", c.ID, c.Kind, c.Form, strings.Join(problems, "; "), c.Text, out)
		return false
	}
	return true
}

// TestSecondIndependentPaymentCorpus runs the second independent corpus:
// with the default options every true case must be masked (no secret
// survives, the kept strings and expected placeholders do, the report counts
// payment data, and cleaning the output again changes nothing) and every
// false case must pass the payment rules untouched; with WithPersonalData
// the personal cases labelled true must become their tokens and those
// labelled false must stay. Every failing case is reported with its output.
func TestSecondIndependentPaymentCorpus(t *testing.T) {
	s := New()
	ps := New(WithPersonalData(true))
	var masked, kept, pMasked, pKept secondCorpusTally
	for _, c := range readIndependentCases(t, "independent2", "true.jsonl") {
		masked.total++
		if checkSecondCorpusCase(t, s, c, true, KindPayment) {
			masked.passed++
		}
	}
	for _, c := range readIndependentCases(t, "independent2", "false.jsonl") {
		kept.total++
		if checkSecondCorpusCase(t, s, c, false, KindPayment) {
			kept.passed++
		}
	}
	for _, c := range readIndependentCases(t, "independent2", "personal.jsonl") {
		tally := &pKept
		switch c.Label {
		case "true":
			tally = &pMasked
		case "false":
		default:
			t.Fatalf("%s: label %q is neither true nor false", c.ID, c.Label)
		}
		tally.total++
		if checkSecondCorpusCase(t, ps, c, c.Label == "true", KindPersonalData) {
			tally.passed++
		}
	}
	if masked.total < 150 || kept.total < 150 || pMasked.total < 50 || pKept.total < 30 {
		t.Fatalf("corpus too small: %d true, %d false, personal %d true and %d false",
			masked.total, kept.total, pMasked.total, pKept.total)
	}
	t.Logf("true: %d/%d masked; false: %d/%d kept; personal: %d/%d masked, %d/%d kept",
		masked.passed, masked.total, kept.passed, kept.total, pMasked.passed, pMasked.total, pKept.passed, pKept.total)
}
