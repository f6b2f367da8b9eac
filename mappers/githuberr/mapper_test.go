package githuberr_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"
	"time"

	"github.com/google/go-github/v90/github"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/mappers/githuberr"
	"github.com/toolerr/toolerr/translate"
)

// reply is one documented GitHub error response.
type reply struct {
	status int
	header map[string]string
	body   string
}

// replies are GitHub's documented error responses (GitHub REST API docs:
// "Troubleshooting the REST API", "Rate limits for the REST API", each
// endpoint's status codes), by the path the client asks for.
func replies() map[string]reply {
	reset := strconv.FormatInt(time.Now().Add(30*time.Second).Unix(), 10)
	return map[string]reply{
		"/repos/acme/widgets/issues": {http.StatusUnprocessableEntity, nil,
			`{"message":"Validation Failed","errors":[{"resource":"Issue","field":"title","code":"missing_field"}],"documentation_url":"https://docs.github.com/rest/issues/issues#create-an-issue","status":"422"}`},
		"/repos/acme/missing": {http.StatusNotFound, nil,
			`{"message":"Not Found","documentation_url":"https://docs.github.com/rest/repos/repos#get-a-repository","status":"404"}`},
		"/repos/acme/private": {http.StatusUnauthorized, nil,
			`{"message":"Bad credentials","documentation_url":"https://docs.github.com/rest","status":"401"}`},
		"/repos/acme/exists/labels": {http.StatusUnprocessableEntity, nil,
			`{"message":"Validation Failed","errors":[{"resource":"Label","code":"already_exists","field":"name"}],"documentation_url":"https://docs.github.com/rest/issues/labels#create-a-label","status":"422"}`},
		"/repos/acme/primary": {http.StatusForbidden,
			map[string]string{"X-RateLimit-Limit": "60", "X-RateLimit-Remaining": "0", "X-RateLimit-Used": "60", "X-RateLimit-Reset": reset, "X-RateLimit-Resource": "core"},
			`{"message":"API rate limit exceeded for 203.0.113.7. (But here's the good news: Authenticated requests get a higher rate limit. Check out the documentation for more details.)","documentation_url":"https://docs.github.com/rest/overview/resources-in-the-rest-api#rate-limiting"}`},
		"/repos/acme/secondary": {http.StatusForbidden, map[string]string{"Retry-After": "17"},
			`{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again.","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}`},
		"/repos/acme/secondary-bare": {http.StatusTooManyRequests, nil,
			`{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again.","documentation_url":"https://docs.github.com/rest/overview/rate-limits-for-the-rest-api#about-secondary-rate-limits"}`},
	}
}

// server replays the documented responses on a loopback port and returns
// a maker of clients that call it, one attempt per call. Each scenario
// gets a client of its own: go-github holds back calls after a rate
// limit until its reset.
func server(t *testing.T) func() *github.Client {
	t.Helper()
	rs := replies()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		rp, ok := rs[r.URL.Path]
		if !ok {
			http.NotFound(w, r)
			return
		}
		for k, v := range rp.header {
			w.Header().Set(k, v)
		}
		w.Header().Set("Content-Type", "application/json; charset=utf-8")
		w.Header().Set("X-GitHub-Request-Id", "CAFE:1234:5678AB:9ABCDE:65F0A1B2")
		w.WriteHeader(rp.status)
		_, _ = w.Write([]byte(rp.body))
	}))
	t.Cleanup(srv.Close)
	base := srv.URL + "/"
	return func() *github.Client {
		client, err := github.NewClient(github.WithHTTPClient(srv.Client()), github.WithURLs(&base, &base))
		require.NoError(t, err)
		return client
	}
}

// classifier is the middleware's: translate's tables registered, the
// mapper added.
func classifier(t *testing.T) *classify.Classifier {
	t.Helper()
	c := classify.New(nil, classify.WithErrorMappers(githuberr.Mapper()))
	_, err := translate.NewSet(c)
	require.NoError(t, err)
	return c
}

func TestErrorsFromTheRealClient(t *testing.T) {
	client, c, ctx := server(t), classifier(t), context.Background()
	classifyErr := func(err error, method string) *toolerr.Error {
		t.Helper()
		require.Error(t, err)
		e, ok := c.HandlerError(ctx, fmt.Errorf("github: %w", err), method, false)
		require.True(t, ok)
		require.NotNil(t, e.Upstream)
		assert.Equal(t, githuberr.Vendor, e.Upstream.Vendor)
		assert.Equal(t, "CAFE:1234:5678AB:9ABCDE:65F0A1B2", e.Upstream.RequestID)
		return e
	}

	_, _, err := client().Issues.Create(ctx, "acme", "widgets", github.CreateIssueRequest{})
	var er *github.ErrorResponse
	require.ErrorAs(t, err, &er)
	e := classifyErr(err, http.MethodPost)
	assert.Equal(t, toolerr.CodeValidationFailed, e.Code)
	assert.False(t, e.Retryable)
	assert.Equal(t, "title", e.Field)
	assert.Equal(t, "missing_field", e.Upstream.Code)
	assert.Equal(t, http.StatusUnprocessableEntity, e.Upstream.Status)

	_, _, err = client().Issues.CreateLabel(ctx, "acme", "exists", github.CreateIssueLabelRequest{Name: "bug"})
	e = classifyErr(err, http.MethodPost)
	assert.Equal(t, toolerr.CodeConflict, e.Code, "already_exists, by GitHub's table")
	assert.Equal(t, "name", e.Field)

	_, _, err = client().Repositories.Get(ctx, "acme", "missing")
	e = classifyErr(err, http.MethodGet)
	assert.Equal(t, toolerr.CodeNotFound, e.Code)
	assert.False(t, e.Retryable)
	assert.Equal(t, http.StatusNotFound, e.Upstream.Status)

	_, _, err = client().Repositories.Get(ctx, "acme", "private")
	e = classifyErr(err, http.MethodGet)
	assert.Equal(t, toolerr.CodeUnauthenticated, e.Code)

	_, _, err = client().Repositories.Get(ctx, "acme", "secondary")
	var al *github.AbuseRateLimitError
	require.ErrorAs(t, err, &al, "go-github reads a secondary limit")
	e = classifyErr(err, http.MethodPost)
	assert.Equal(t, toolerr.CodeRateLimited, e.Code, "a 403 that is a secondary limit, not a denial")
	assert.True(t, e.Retryable)
	assert.Equal(t, 17*time.Second, e.RetryAfter, "RetryAfter")

	_, _, err = client().Repositories.Get(ctx, "acme", "secondary-bare")
	require.ErrorAs(t, err, &al)
	e = classifyErr(err, http.MethodGet)
	assert.Equal(t, toolerr.CodeRateLimited, e.Code)
	assert.Equal(t, time.Minute, e.RetryAfter, "GitHub: wait at least one minute")

	_, _, err = client().Repositories.Get(ctx, "acme", "primary")
	var rl *github.RateLimitError
	require.ErrorAs(t, err, &rl, "go-github reads an exhausted primary limit")
	e = classifyErr(err, http.MethodGet)
	assert.Equal(t, toolerr.CodeRateLimited, e.Code)
	assert.True(t, e.Retryable)
	assert.InDelta(t, 30*time.Second, e.RetryAfter, float64(2*time.Second), "until Rate.Reset")
	assert.Equal(t, http.StatusForbidden, e.Upstream.Status)
}

func TestNotGitHub(t *testing.T) {
	_, ok := githuberr.Mapper().MapError(fmt.Errorf("plain"))
	assert.False(t, ok)
	o, ok := githuberr.Mapper().MapError(&github.ErrorResponse{Message: "built by hand"})
	require.True(t, ok, "an error without a response still names GitHub")
	assert.Equal(t, githuberr.Vendor, o.Vendor)
	assert.Equal(t, "built by hand", o.Message)
}
