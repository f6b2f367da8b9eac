package github93_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/go-github/v93/github"

	"github.com/toolerr/toolerr/internal/sdkmajors"
)

// TestGitHubV93LikeEveryMajor: go-github v93's errors, from a real
// client, are classified as the shared table says, with no mapper
// registered: no mapper module is built against v93.
func TestGitHubV93LikeEveryMajor(t *testing.T) {
	sdkmajors.Run(t, "github", callV93)
}

// callV93 gets a repository (GET) or creates an issue (POST) with a real
// go-github v93 client. Each call has a client of its own: go-github
// holds back a client's calls after a rate limit until its reset, and
// it does not retry.
func callV93(ctx context.Context, base string, hc *http.Client, method string) error {
	client, err := github.NewClient(github.WithHTTPClient(hc), github.WithURLs(&base, &base))
	if err != nil {
		return err
	}
	if method == http.MethodGet {
		_, _, err = client.Repositories.Get(ctx, "acme", "widgets")
		return err
	}
	_, _, err = client.Issues.Create(ctx, "acme", "widgets", github.CreateIssueRequest{Title: "Widget jams"})
	return err
}
