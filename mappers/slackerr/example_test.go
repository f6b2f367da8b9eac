package slackerr_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/slack-go/slack"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/mappers/slackerr"
	"github.com/toolerr/toolerr/middleware"
)

// A tool whose Slack call failed returns slack-go's error as it got it;
// the middleware, given the mapper, classifies it.
func ExampleMapper() {
	api := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, _ *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprint(w, `{"ok":false,"error":"channel_not_found"}`)
	}))
	defer api.Close()
	client := slack.New("xoxb-example", slack.OptionHTTPClient(api.Client()), slack.OptionAPIURL(api.URL+"/api/"))

	h := middleware.New(middleware.WithErrorMappers(slackerr.Mapper()))
	tool := middleware.Tool("notify", func(_ http.ResponseWriter, r *http.Request) error {
		_, _, err := client.PostMessageContext(r.Context(), "C0123", slack.MsgOptionText("deployed", false))
		return fmt.Errorf("notify: %w", err)
	})
	rec := httptest.NewRecorder()
	h(tool).ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/tools/notify", nil))
	e, _ := toolerr.Parse(rec.Body.Bytes())
	fmt.Println(rec.Code, e.Code, e.Upstream.Vendor, e.Upstream.Code)
	// Output: 404 NOT_FOUND slack channel_not_found
}
