package googleerr_test

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"

	"google.golang.org/api/option"
	tasks "google.golang.org/api/tasks/v1"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/mappers/googleerr"
	"github.com/toolerr/toolerr/middleware"
)

// A tool whose Google API call failed returns the client's error as it got
// it; the middleware, given the mapper, classifies it.
func ExampleMapper() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusNotFound)
		fmt.Fprint(w, `{"error":{"code":404,"message":"Requested entity was not found.","status":"NOT_FOUND"}}`)
	}))
	defer api.Close()
	svc, _ := tasks.NewService(context.Background(), option.WithHTTPClient(api.Client()), option.WithEndpoint(api.URL+"/"))

	h := middleware.New(middleware.WithErrorMappers(googleerr.Mapper()))
	tool := middleware.Tool("get_task_list", func(_ http.ResponseWriter, r *http.Request) error {
		_, err := svc.Tasklists.Get("list-1").Context(r.Context()).Do()
		return fmt.Errorf("tasks: %w", err)
	})
	rec := httptest.NewRecorder()
	h(tool).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/tools/get_task_list", nil))
	e, _ := toolerr.Parse(rec.Body.Bytes())
	fmt.Println(rec.Code, e.Code, e.Upstream.Vendor, e.Upstream.Code)
	// Output: 404 NOT_FOUND google NOT_FOUND
}
