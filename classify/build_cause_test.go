package classify

import (
	"context"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/toolerr/toolerr"
)

// ClassifyCause builds the error Classify(ctx, o).WithCause(cause) does,
// details and violations included, and tells the observer alike.
func TestClassifyCauseIsClassifyWithCause(t *testing.T) {
	ctx := context.Background()
	cause := errors.New("vendor said no")
	for _, o := range []Outcome{
		{Status: 402, Vendor: "stripe", VendorCode: "card_declined", Message: "declined",
			Details: map[string]any{"decline_code": "insufficient_funds", "attempt": 2, "live": true, "dropped": []int{1}}},
		{Status: 400, Vendor: "acme", VendorCode: "bad_thing", Field: "/name",
			Violations: []toolerr.Violation{{Field: "/name", Reason: "is too long"}}},
		{Status: 0, Err: errors.New("dial tcp: connection refused")},
	} {
		c1, rec1 := newTestClassifier(t)
		c2, rec2 := newTestClassifier(t)
		want := c1.Classify(ctx, o).WithCause(cause)
		got := c2.ClassifyCause(ctx, o, cause)
		assert.Equal(t, want, got)
		assert.Same(t, cause, errors.Unwrap(got))
		assert.Equal(t, rec1.got, rec2.got)
	}
}

// Build keeps o.Err as the cause, and setting details in place leaves the
// outcome's own map as it was.
func TestBuildKeepsErrAndOutcomeDetails(t *testing.T) {
	c, _ := newTestClassifier(t, WithMessageFilter(func(s string) string { return "[" + s + "]" }))
	err := errors.New("boom")
	in := map[string]any{"doc_url": "x"}
	o := Outcome{Status: 503, Err: err, Details: in}
	e := c.Build(c.Decide(o), o)
	assert.Same(t, err, errors.Unwrap(e))
	assert.Equal(t, map[string]any{"doc_url": "[x]"}, e.Details)
	assert.Equal(t, map[string]any{"doc_url": "x"}, in)
	e.Details["doc_url"] = "changed"
	assert.Equal(t, "x", in["doc_url"])
}
