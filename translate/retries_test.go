package translate

import (
	"context"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// retriedResponse is a vendor response whose request carries rec, as
// retrygate.Transport leaves it.
func retriedResponse(status int, header http.Header, rec *Retries) *http.Response {
	ctx := context.Background()
	if rec != nil {
		ctx = WithRetries(ctx, *rec)
	}
	req := httptest.NewRequest(http.MethodGet, "https://api.example.test/v1/x", nil).WithContext(ctx)
	rr := httptest.NewRecorder()
	for k, v := range header {
		rr.Header()[k] = v
	}
	rr.WriteHeader(status)
	resp := rr.Result()
	resp.Request = req
	return resp
}

func TestResponseReportsTheClientsRetries(t *testing.T) {
	wait := 800 * time.Millisecond
	cases := []struct {
		name        string
		status      int
		header      http.Header
		rec         *Retries
		attempts    int
		maxAttempts int
		retryAfter  time.Duration
	}{
		{"no retrying client", 503, nil, nil, 0, 3, 0},
		{"a retry, not the last", 503, nil, &Retries{Attempt: 2}, 2, 3, 0},
		{"retries spent: one more call, after the client's wait", 503, nil, &Retries{Attempt: 3, Spent: true, Wait: wait}, 3, 2, wait},
		{"retries spent, the vendor's delay wins", 503, http.Header{"Retry-After": {"7"}}, &Retries{Attempt: 3, Spent: true, Wait: wait}, 3, 2, 7 * time.Second},
		{"a failure that is not retryable keeps no policy", 404, nil, &Retries{Attempt: 1, Spent: true, Wait: wait}, 1, 0, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			e, ok := toolerr.From(Response(retriedResponse(c.status, c.header, c.rec)))
			require.True(t, ok)
			require.NotNil(t, e.Upstream)
			assert.Equal(t, c.attempts, e.Upstream.Attempts)
			if c.maxAttempts == 0 {
				assert.False(t, e.Retryable)
				return
			}
			require.NotNil(t, e.RetryPolicy)
			assert.Equal(t, c.maxAttempts, e.RetryPolicy.MaxAttempts)
			assert.Equal(t, c.retryAfter, e.RetryAfter)
		})
	}
}

func TestRetriesOf(t *testing.T) {
	_, ok := RetriesOf(context.Background())
	assert.False(t, ok)
	r, ok := RetriesOf(WithRetries(context.Background(), Retries{Attempt: 2, Spent: true}))
	assert.True(t, ok)
	assert.Equal(t, Retries{Attempt: 2, Spent: true}, r)
}
