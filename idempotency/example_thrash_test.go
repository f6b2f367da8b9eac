package idempotency_test

import (
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/go-chi/chi/v5"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/middleware"
)

// An agent asks get_order for an order that does not exist, again and
// again: the third identical call is not run, and the agent is told to
// change the arguments, use a fallback, or ask the user. Another order
// still runs.
func ExampleThrashGuard() {
	runs := 0
	getOrder := func(w http.ResponseWriter, r *http.Request) error {
		runs++
		if r.URL.Query().Get("id") != "ord-1" {
			return toolerr.Default().New(toolerr.CodeNotFound, "No such order.")
		}
		_, _ = w.Write([]byte(`{"id":"ord-1"}`))
		return nil
	}
	quiet := slog.New(slog.DiscardHandler)

	counter := idempotency.NewMemoryStore() // one replica; redisstore.New(client) for several
	r := chi.NewRouter()
	r.Use(middleware.New(middleware.WithLogger(quiet)), idempotency.ThrashGuard(counter, idempotency.WithLogger(quiet)))
	r.Method(http.MethodGet, "/tools/get_order", middleware.Tool("get_order", getOrder))

	for _, id := range []string{"ord-9", "ord-9", "ord-9", "ord-1"} {
		req := httptest.NewRequest(http.MethodGet, "/tools/get_order?id="+id, nil)
		req.Header.Set("Authorization", "Bearer agent-1")
		rec := httptest.NewRecorder()
		r.ServeHTTP(rec, req)
		if rec.Code >= 400 {
			e, _ := toolerr.Parse(rec.Body.Bytes())
			fmt.Println(rec.Code, e.Code, e.Details["repeated_code"])
			continue
		}
		fmt.Println(rec.Code, strings.TrimSpace(rec.Body.String()))
	}
	fmt.Println("runs:", runs)
	// Output:
	// 404 NOT_FOUND <nil>
	// 404 NOT_FOUND <nil>
	// 409 REPEATED_FAILURE NOT_FOUND
	// 200 {"id":"ord-1"}
	// runs: 3
}
