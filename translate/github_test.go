package translate

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestGitHubRobust checks that garbage never panics and that GitHub's table names only built-in codes.
func TestGitHubRobust(t *testing.T) {
	devRobust(t, builtinNamed("github"))
	devCodesRegister(t, builtinNamed("github"))
}

// TestGitHubErrorsEntries reads the first usable errors[] entry whatever its shape.
func TestGitHubErrorsEntries(t *testing.T) {
	tr := builtinNamed("github")
	cases := []struct {
		name, body, code, field, message string
	}{
		{"object", `{"message":"Validation Failed","errors":[{"resource":"Issue","field":"title","code":"missing_field"}]}`,
			"missing_field", "title", "Validation Failed"},
		{"custom with message", `{"message":"Validation Failed","errors":[{"resource":"PullRequest","code":"custom","message":"A pull request already exists for acme:fix."}]}`,
			"custom", "", "Validation Failed: A pull request already exists for acme:fix."},
		{"string entries", `{"message":"Validation Failed","errors":["Only 100 labels are allowed"]}`,
			"", "", "Validation Failed: Only 100 labels are allowed"},
		{"junk entries skipped", `{"message":"Validation Failed","errors":[null, 3, {"field":"body","code":"invalid"}]}`,
			"invalid", "body", "Validation Failed"},
		{"errors not an array", `{"message":"Validation Failed","errors":{"field":"x"}}`,
			"", "", "Validation Failed"},
		{"wrong member types", `{"message":"Validation Failed","errors":[{"field":12,"code":["x"]}]}`,
			"", "", "Validation Failed"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, ok := tr.Translate(devRaw(422, c.body, "X-GitHub-Request-Id", "AB:CD"))
			require.True(t, ok)
			assert.Equal(t, c.code, o.VendorCode)
			assert.Equal(t, c.field, o.Field)
			assert.Equal(t, c.message, o.Message)
			assert.Equal(t, "AB:CD", o.RequestID)
		})
	}
}

// TestGitHubRateLimits tells rate-limit 403s and 429s from denials and picks the secondary-limit wait.
func TestGitHubRateLimits(t *testing.T) {
	tr := builtinNamed("github")
	secondary := `{"message":"You have exceeded a secondary rate limit. Please wait a few minutes before you try again."}`
	cases := []struct {
		name    string
		status  int
		body    string
		header  []string
		limited bool
		delay   time.Duration
	}{
		{"plain 403", 403, `{"message":"Must have admin rights to Repository."}`, nil, false, 0},
		{"secondary, no headers", 403, secondary, nil, true, time.Minute},
		{"secondary, retry-after", 403, secondary, []string{"Retry-After", "5"}, true, 0},
		{"secondary, exhausted primary", 429, secondary, []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "9999999999"}, true, 0},
		{"secondary, junk reset", 429, secondary, []string{"X-RateLimit-Remaining", "0", "X-RateLimit-Reset", "soon"}, true, time.Minute},
		{"primary message", 403, `{"message":"API rate limit exceeded for 203.0.113.9."}`, nil, true, 0},
		{"secondary words on a 404", 404, secondary, nil, false, 0},
		{"secondary by its link", 403, `{"message":"You have been rate limited. Please wait before retrying.","documentation_url":"https://docs.github.com/rest/using-the-rest-api/rate-limits-for-the-rest-api#about-secondary-rate-limits"}`, nil, true, time.Minute},
		{"secondary by its old link", 429, `{"message":"Slow down.","documentation_url":"https://docs.github.com/rest/overview/resources-in-the-rest-api#secondary-rate-limits"}`, nil, true, time.Minute},
		{"abuse link", 403, `{"message":"Slow down.","documentation_url":"https://developer.github.com/v3/#abuse-rate-limits"}`, nil, true, time.Minute},
		{"secondary link, retry-after", 429, `{"message":"Slow down.","documentation_url":"https://docs.github.com/rest#secondary-rate-limits"}`, []string{"Retry-After", "30"}, true, 0},
		{"other link on a 403", 403, `{"message":"Resource not accessible by integration","documentation_url":"https://docs.github.com/rest/repos/repos#update-a-repository"}`, nil, false, 0},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, ok := tr.Translate(devRaw(c.status, c.body, c.header...))
			require.True(t, ok)
			assert.Equal(t, c.limited, o.Evidence.RateLimited)
			assert.Equal(t, c.delay, o.Delay)
		})
	}
}

// TestGitHubNotItsShape leaves bodies without GitHub's members, and 2xx bodies, to others.
func TestGitHubNotItsShape(t *testing.T) {
	tr := builtinNamed("github")
	for _, body := range []string{`{}`, `{"message": 5}`, `{"error":"x"}`, `Not Found`} {
		_, ok := tr.Translate(devRaw(404, body))
		assert.False(t, ok, body)
	}
	_, ok := tr.Translate(devRaw(200, `{"message":"Not Found","documentation_url":"https://docs.github.com/rest"}`))
	assert.False(t, ok, "a 2xx is a success")
}

// TestGitHubRecognizes claims GitHub's headers and documentation links only.
func TestGitHubRecognizes(t *testing.T) {
	tr := builtinNamed("github")
	assert.True(t, tr.Recognizes(devRaw(404, `{}`, "X-GitHub-Request-Id", "AB:CD")))
	assert.True(t, tr.Recognizes(devRaw(404, `{"message":"Not Found","documentation_url":"https://docs.github.com/rest"}`)))
	assert.False(t, tr.Recognizes(devRaw(404, `{"message":"Not Found","documentation_url":"https://docs.example.com/rest"}`)))
	assert.False(t, tr.Recognizes(devRaw(404, `{"message":"Not Found"}`)))
}

// TestGitHubFeatureDisabledIsNotGone: GitHub answers 410 both for a deleted
// issue and for a repository whose issues are turned off; only the first
// is GONE. The upstream code stays what GitHub sent (none).
func TestGitHubFeatureDisabledIsNotGone(t *testing.T) {
	s, err := NewSet(nil)
	require.NoError(t, err)
	classifyGone := func(msg string) (string, string) {
		e := s.Classify(t.Context(), &Raw{Vendor: "github", Status: 410,
			Body: []byte(`{"message":"` + msg + `","documentation_url":"https://docs.github.com/rest/issues/issues#create-an-issue","status":"410"}`)})
		require.NotNil(t, e)
		require.NotNil(t, e.Upstream)
		return e.Code, e.Upstream.Code
	}
	code, upstream := classifyGone("Issues are disabled for this repo")
	assert.Equal(t, "PRECONDITION_FAILED", code)
	assert.Empty(t, upstream, "no code of GitHub's is invented")
	code, _ = classifyGone("This issue was deleted")
	assert.Equal(t, "GONE", code)
}
