package github84_test

import (
	"context"
	"net/http"
	"net/url"
	"testing"

	"github.com/google/go-github/v84/github"

	"github.com/toolerr/toolerr/internal/sdkmajors"
)

// TestGitHubV84LikeEveryMajor: go-github v84's errors, from a real
// client, are classified as the shared table says, with no mapper
// registered: no mapper module is built against v84.
func TestGitHubV84LikeEveryMajor(t *testing.T) {
	sdkmajors.Run(t, "github", callV84)
}

// callV84 gets a repository (GET) or creates an issue (POST) with a real
// go-github v84 client. Each call has a client of its own: go-github
// holds back a client's calls after a rate limit until its reset, and
// it does not retry.
func callV84(ctx context.Context, base string, hc *http.Client, method string) error {
	u, err := url.Parse(base)
	if err != nil {
		return err
	}
	client := github.NewClient(hc)
	client.BaseURL, client.UploadURL = u, u
	if method == http.MethodGet {
		_, _, err = client.Repositories.Get(ctx, "acme", "widgets")
		return err
	}
	_, _, err = client.Issues.Create(ctx, "acme", "widgets", &github.IssueRequest{Title: github.Ptr("Widget jams")})
	return err
}
