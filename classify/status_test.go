package classify

import (
	"context"
	"fmt"
	"net/http"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolerr/toolerr"
)

// statusTable is the expected classification of every status row: code and
// retryability for a GET and for a POST without an idempotency key.
var statusTable = []struct {
	status            int
	code              string
	getRetry, postRet bool
}{
	{400, toolerr.CodeValidationFailed, false, false},
	{401, toolerr.CodeUnauthenticated, false, false},
	{402, toolerr.CodePaymentRequired, false, false},
	{403, toolerr.CodePermissionDenied, false, false},
	{404, toolerr.CodeNotFound, false, false},
	{405, toolerr.CodeValidationFailed, false, false},
	{406, toolerr.CodeValidationFailed, false, false},
	{407, toolerr.CodeUpstreamMisconfigured, false, false},
	{408, toolerr.CodeUpstreamTimeout, true, true},
	{409, toolerr.CodeConflict, false, false},
	{410, toolerr.CodeGone, false, false},
	{411, toolerr.CodeValidationFailed, false, false},
	{412, toolerr.CodePreconditionFailed, false, false},
	{413, toolerr.CodePayloadTooLarge, false, false},
	{414, toolerr.CodePayloadTooLarge, false, false},
	{415, toolerr.CodeValidationFailed, false, false},
	{416, toolerr.CodeValidationFailed, false, false},
	{417, toolerr.CodeValidationFailed, false, false},
	{418, toolerr.CodeUpstreamUnclassified, false, false},
	{419, toolerr.CodeUnauthenticated, false, false},
	{420, toolerr.CodeRateLimited, true, true},
	{421, toolerr.CodeUpstreamUnavailable, true, true},
	{422, toolerr.CodeValidationFailed, false, false},
	{423, toolerr.CodeConflict, false, false},
	{424, toolerr.CodePreconditionFailed, false, false},
	{425, toolerr.CodeUpstreamUnavailable, true, true},
	{426, toolerr.CodeValidationFailed, false, false},
	{427, toolerr.CodeUpstreamUnclassified, false, false},
	{428, toolerr.CodePreconditionFailed, false, false},
	{429, toolerr.CodeRateLimited, true, true},
	{430, toolerr.CodePolicyBlocked, false, false},
	{431, toolerr.CodePayloadTooLarge, false, false},
	{440, toolerr.CodeUnauthenticated, false, false},
	{449, toolerr.CodeValidationFailed, false, false},
	{450, toolerr.CodePolicyBlocked, false, false},
	{451, toolerr.CodePolicyBlocked, false, false},
	{460, toolerr.CodeCancelled, false, false},
	{463, toolerr.CodeValidationFailed, false, false},
	{494, toolerr.CodePayloadTooLarge, false, false},
	{495, toolerr.CodeUnauthenticated, false, false},
	{496, toolerr.CodeUnauthenticated, false, false},
	{497, toolerr.CodeValidationFailed, false, false},
	{498, toolerr.CodeUnauthenticated, false, false},
	{499, toolerr.CodeCancelled, false, false},
	{500, toolerr.CodeUpstreamUnclassified, false, false},
	{501, toolerr.CodeNotImplemented, false, false},
	{502, toolerr.CodeUpstreamUnavailable, true, true},
	{503, toolerr.CodeUpstreamUnavailable, true, true},
	{504, toolerr.CodeUpstreamTimeout, true, false},
	{505, toolerr.CodeUpstreamMisconfigured, false, false},
	{506, toolerr.CodeUpstreamMisconfigured, false, false},
	{507, toolerr.CodeQuotaExhausted, false, false},
	{508, toolerr.CodeUpstreamMisconfigured, false, false},
	{509, toolerr.CodeQuotaExhausted, false, false},
	{510, toolerr.CodeUpstreamMisconfigured, false, false},
	{511, toolerr.CodeUpstreamMisconfigured, false, false},
	{520, toolerr.CodeUpstreamUnavailable, true, true},
	{521, toolerr.CodeUpstreamUnavailable, true, true},
	{522, toolerr.CodeUpstreamTimeout, true, false},
	{523, toolerr.CodeUpstreamUnavailable, true, true},
	{524, toolerr.CodeUpstreamTimeout, true, false},
	{525, toolerr.CodeUpstreamMisconfigured, false, false},
	{526, toolerr.CodeUpstreamMisconfigured, false, false},
	{527, toolerr.CodeUpstreamUnavailable, true, true},
	{529, toolerr.CodeUpstreamUnavailable, true, true},
	{530, toolerr.CodeUpstreamMisconfigured, false, false},
	{598, toolerr.CodeUpstreamTimeout, true, false},
	{599, toolerr.CodeUpstreamTimeout, true, false},
	// Unknown statuses fall back per class.
	{432, toolerr.CodeUpstreamUnclassified, false, false},
	{555, toolerr.CodeUpstreamUnclassified, false, false},
}

func TestStatusTable(t *testing.T) {
	c := New(nil)
	for _, tc := range statusTable {
		t.Run(fmt.Sprint(tc.status), func(t *testing.T) {
			get := c.Decide(Outcome{Method: http.MethodGet, Status: tc.status})
			assert.Equal(t, tc.code, get.Code)
			assert.Equal(t, RuleStatus, get.Rule)
			assert.Equal(t, tc.getRetry, get.Retryable, "GET retryable")
			post := c.Decide(Outcome{Method: http.MethodPost, Status: tc.status})
			assert.Equal(t, tc.postRet, post.Retryable, "POST retryable")
			keyed := c.Decide(Outcome{Method: http.MethodPost, Idempotent: true, Status: tc.status})
			assert.Equal(t, tc.getRetry, keyed.Retryable, "POST with idempotency key")
			assert.Equal(t, tc.code, StatusCode(tc.status))

			e := c.Classify(context.Background(), Outcome{Method: http.MethodGet, Status: tc.status})
			body := e.WithRequestID("r1").AppendJSON(nil)
			require.NoError(t, toolerr.Validate(body), "%s", body)
		})
	}
}

// TestStatusTableCoversRequiredRows checks that every status the contract
// names has its own row (not the per-class fallback), unless the fallback is
// the row's deliberate answer.
func TestStatusTableCoversRequiredRows(t *testing.T) {
	required := []int{}
	for s := 400; s <= 418; s++ {
		required = append(required, s)
	}
	for s := 421; s <= 429; s++ {
		required = append(required, s)
	}
	required = append(required, 431, 451, 499)
	for s := 500; s <= 511; s++ {
		required = append(required, s)
	}
	for s := 520; s <= 527; s++ {
		required = append(required, s)
	}
	required = append(required, 529)
	listed := map[int]bool{}
	for _, tc := range statusTable {
		listed[tc.status] = true
	}
	for _, s := range required {
		assert.True(t, listed[s], "status %d has no row in the test table", s)
		assert.NotEmpty(t, StatusCode(s), "status %d", s)
	}
	assert.Empty(t, StatusCode(200))
	assert.Empty(t, StatusCode(399))
	assert.Empty(t, StatusCode(600))
}

func TestEveryCategoryIsReachable(t *testing.T) {
	c := New(nil)
	seen := map[toolerr.Category]bool{}
	for s := 400; s <= 599; s++ {
		seen[c.Decide(Outcome{Status: s}).Category] = true
	}
	seen[c.Decide(Outcome{Err: context.Canceled}).Category] = true
	for _, cat := range toolerr.Categories() {
		if cat == toolerr.CategoryInternal {
			continue // the tool's own failures; never a downstream outcome
		}
		assert.True(t, seen[cat], "no outcome classifies as %s", cat)
	}
}
