package grpcerr_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/mappers/grpcerr"
	"github.com/toolerr/toolerr/middleware"
)

// A tool whose gRPC call failed returns the status error as it got it;
// the middleware, given the mapper, classifies it.
func ExampleMapper() {
	h := middleware.New(middleware.WithErrorMappers(grpcerr.Mapper()))
	tool := middleware.Tool("get_account", func(http.ResponseWriter, *http.Request) error {
		return fmt.Errorf("ledger: %w", status.Error(codes.NotFound, "no such account"))
	})
	rec := httptest.NewRecorder()
	h(tool).ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/tools/get_account", nil))
	e, _ := toolerr.Parse(rec.Body.Bytes())
	fmt.Println(rec.Code, e.Code, e.Upstream.Vendor, e.Upstream.Code)
	// Output: 404 NOT_FOUND grpc NOT_FOUND
}
