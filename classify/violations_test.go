package classify

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// TestVendorViolations: a vendor's violations reach the error filtered,
// bounded in number and length, and without a filter only as fields with
// a fixed reason.
func TestVendorViolations(t *testing.T) {
	many := make([]toolerr.Violation, 0, 40)
	for range 40 {
		many = append(many, toolerr.Violation{Field: "/a", Reason: "bad"})
	}
	long := strings.Repeat("é", 200) // 400 bytes: cut at a rune boundary
	o := Outcome{Status: http.StatusBadRequest, Vendor: "acme", Violations: append([]toolerr.Violation{
		{Field: "/email", Reason: "must be an e-mail address", AllowedValues: "x", SuggestedValue: "y"},
		{Field: "/note", Reason: long},
		{Field: "/name", Reason: ""},
	}, many...)}

	e := New(nil).Classify(context.Background(), o)
	require.Len(t, e.Violations, toolerr.MaxViolations)
	assert.Equal(t, toolerr.Violation{Field: "/email", Reason: "must be an e-mail address"}, e.Violations[0], "vendor values are dropped")
	assert.LessOrEqual(t, len(e.Violations[1].Reason), toolerr.MaxReasonLen)
	assert.True(t, utf8.ValidString(e.Violations[1].Reason))
	assert.Equal(t, invalidReason, e.Violations[2].Reason)

	bare := New(nil, WithMessageFilter(nil)).Classify(context.Background(), Outcome{Status: http.StatusBadRequest, Violations: []toolerr.Violation{
		{Field: "/email", Reason: "must be an e-mail address"},
		{Field: "/a b<script>", Reason: "x"},
	}})
	assert.Equal(t, []toolerr.Violation{{Field: "/email", Reason: invalidReason}}, bare.Violations,
		"without a filter: plain fields, a fixed reason, nothing else")
}
