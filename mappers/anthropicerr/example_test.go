package anthropicerr_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/mappers/anthropicerr"
	"github.com/toolerr/toolerr/middleware"
)

// A tool whose Anthropic call failed returns the SDK's error as it got it;
// the middleware, given the mapper, classifies it.
func ExampleMapper() {
	anthropicAPI := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Request-Id", "req_42")
		w.Header().Set("Retry-After", "3")
		w.WriteHeader(529)
		_, _ = w.Write([]byte(`{"type": "error", "error": {"type": "overloaded_error", "message": "Overloaded"}, "request_id": "req_42"}`))
	}))
	defer anthropicAPI.Close()
	client := anthropic.NewClient(option.WithBaseURL(anthropicAPI.URL), option.WithAPIKey("sk-ant-example"), option.WithMaxRetries(0))

	h := middleware.New(middleware.WithErrorMappers(anthropicerr.Mapper()))
	tool := middleware.Tool("draft_reply", func(_ http.ResponseWriter, r *http.Request) error {
		_, err := client.Messages.New(r.Context(), anthropic.MessageNewParams{
			Model: anthropic.Model("claude-sonnet-5-5"), MaxTokens: 256,
			Messages: []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Draft a reply."))},
		})
		return fmt.Errorf("draft: %w", err)
	})
	rec := httptest.NewRecorder()
	h(tool).ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/tools/draft_reply", nil))
	e, _ := toolerr.Parse(rec.Body.Bytes())
	fmt.Println(rec.Code, e.Code, e.Retryable, e.RetryAfter, e.Upstream.Vendor, e.Upstream.Code)
	// Output: 503 UPSTREAM_UNAVAILABLE true 3s anthropic overloaded_error
}
