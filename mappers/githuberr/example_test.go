package githuberr_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/google/go-github/v90/github"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/mappers/githuberr"
	"github.com/toolerr/toolerr/middleware"
)

// A tool whose GitHub call failed returns go-github's error as it got it;
// the middleware, given the mapper, classifies it.
func ExampleMapper() {
	gh := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"message":"Not Found","documentation_url":"https://docs.github.com/rest/repos/repos#get-a-repository","status":"404"}`)
	}))
	defer gh.Close()
	base := gh.URL + "/"
	client, _ := github.NewClient(github.WithHTTPClient(gh.Client()), github.WithURLs(&base, &base))

	h := middleware.New(middleware.WithErrorMappers(githuberr.Mapper()))
	tool := middleware.Tool("get_repo", func(_ http.ResponseWriter, r *http.Request) error {
		_, _, err := client.Repositories.Get(r.Context(), "acme", "widgets")
		return fmt.Errorf("get repo: %w", err)
	})
	rec := httptest.NewRecorder()
	h(tool).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/tools/get_repo", nil))
	e, _ := toolerr.Parse(rec.Body.Bytes())
	fmt.Println(rec.Code, e.Code, e.Upstream.Vendor, e.Upstream.Status)
	// Output: 404 NOT_FOUND github 404
}
