package mysqlerr_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/go-sql-driver/mysql"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/mappers/mysqlerr"
	"github.com/toolerr/toolerr/middleware"
)

// A tool whose INSERT met a duplicate key returns the driver's error as
// it got it; the middleware, given the mapper, answers CONFLICT, and the
// server's message, which quotes the key, stays out of the answer.
func ExampleMapper() {
	h := middleware.New(middleware.WithErrorMappers(mysqlerr.Mapper()))
	tool := middleware.Tool("create_customer", func(http.ResponseWriter, *http.Request) error {
		err := &mysql.MySQLError{Number: 1062, Message: "Duplicate entry 'ada@example.com' for key 'email'"}
		return fmt.Errorf("save customer: %w", err)
	})
	rec := httptest.NewRecorder()
	h(tool).ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/tools/create_customer", nil))
	e, _ := toolerr.Parse(rec.Body.Bytes())
	fmt.Println(rec.Code, e.Code, e.Retryable, e.Upstream.Vendor, e.Upstream.Code)
	fmt.Println(e.Detail)
	// Output:
	// 409 CONFLICT false mysql 1062
	// The request conflicts with the current state
}
