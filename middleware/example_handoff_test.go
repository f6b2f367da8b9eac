package middleware_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
)

// A handler written in a framework's idiom hands its error over instead of
// writing it: the middleware renders it once, on the way out, with the
// status of the error's code, whatever status the handler set before.
func ExampleReportError() {
	cancel := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		middleware.NameTool(r.Context(), "cancel_order")
		w.WriteHeader(http.StatusBadRequest) // a framework's abort: no evidence of anything
		middleware.ReportError(r.Context(), toolerr.Default().
			New(toolerr.CodeConflict, "Order 7 was shipped already.").
			WithField("order_id"))
	})
	quiet := slog.New(slog.DiscardHandler)
	h := middleware.New(middleware.WithLogger(quiet))(cancel)

	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, httptest.NewRequest("POST", "/orders/7/cancel", nil))

	e, _ := toolerr.Parse(rec.Body.Bytes())
	fmt.Println(rec.Code, e.Code, e.Tool, e.Field)
	fmt.Println(e.Upstream == nil)
	// Output:
	// 409 CONFLICT cancel_order order_id
	// true
}
