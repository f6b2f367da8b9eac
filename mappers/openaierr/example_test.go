package openaierr_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/mappers/openaierr"
	"github.com/toolerr/toolerr/middleware"
)

// A tool whose OpenAI call failed returns the SDK's error as it got it;
// the middleware, given the mapper, classifies it.
func ExampleMapper() {
	openAIAPI := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Request-Id", "req_42")
		w.Header().Set("Retry-After-Ms", "2000")
		w.WriteHeader(http.StatusTooManyRequests)
		_, _ = w.Write([]byte(`{"error": {"message": "Rate limit reached for gpt-4o on requests per min (RPM).",
			"type": "requests", "param": null, "code": "rate_limit_exceeded"}}`))
	}))
	defer openAIAPI.Close()
	client := openai.NewClient(option.WithBaseURL(openAIAPI.URL), option.WithAPIKey("sk-example"), option.WithMaxRetries(0))

	h := middleware.New(middleware.WithErrorMappers(openaierr.Mapper()))
	tool := middleware.Tool("summarize", func(_ http.ResponseWriter, r *http.Request) error {
		_, err := client.Chat.Completions.New(r.Context(), openai.ChatCompletionNewParams{
			Model:    openai.ChatModel("gpt-4.1"),
			Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Summarize the ticket.")},
		})
		return fmt.Errorf("summarize: %w", err)
	})
	rec := httptest.NewRecorder()
	h(tool).ServeHTTP(rec, httptest.NewRequest(http.MethodPost, "/tools/summarize", nil))
	e, _ := toolerr.Parse(rec.Body.Bytes())
	fmt.Println(rec.Code, e.Code, e.Retryable, e.RetryAfter, e.Upstream.Vendor, e.Upstream.Code)
	// Output: 429 RATE_LIMITED true 2s openai rate_limit_exceeded
}
