package githuberr_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/google/go-github/v90/github"

	"github.com/toolerr/toolerr/internal/sdkmajors"
	"github.com/toolerr/toolerr/mappers/githuberr"
	"github.com/toolerr/toolerr/middleware"
)

// TestGitHubV90LikeEveryMajor: go-github v90's errors, from a real
// client, are classified as the shared table says, as every other
// major's are (mappers/majors/github84, mappers/majors/github93), with
// the mapper registered or not.
func TestGitHubV90LikeEveryMajor(t *testing.T) {
	t.Run("no-mapper", func(t *testing.T) { sdkmajors.Run(t, githuberr.Vendor, callV90) })
	t.Run("mapper", func(t *testing.T) {
		sdkmajors.Run(t, githuberr.Vendor, callV90, middleware.WithErrorMappers(githuberr.Mapper()))
	})
}

// callV90 gets a repository (GET) or creates an issue (POST) with a real
// go-github v90 client. Each call has a client of its own: go-github
// holds back a client's calls after a rate limit until its reset, and
// it does not retry.
func callV90(ctx context.Context, base string, hc *http.Client, method string) error {
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
