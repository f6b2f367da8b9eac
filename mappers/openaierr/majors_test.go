package openaierr_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"

	"github.com/toolerr/toolerr/internal/sdkmajors"
	"github.com/toolerr/toolerr/mappers/openaierr"
	"github.com/toolerr/toolerr/middleware"
)

// TestOpenAIV3LikeEveryMajor: openai-go v3's errors, from a real client,
// are classified as the shared table says, as v1's and v2's are
// (mappers/majors/openai1, openai2), with the mapper registered or not.
func TestOpenAIV3LikeEveryMajor(t *testing.T) {
	t.Run("no-mapper", func(t *testing.T) { sdkmajors.Run(t, openaierr.Vendor, callOpenAIV3) })
	t.Run("mapper", func(t *testing.T) {
		sdkmajors.Run(t, openaierr.Vendor, callOpenAIV3, middleware.WithErrorMappers(openaierr.Mapper()))
	})
}

// callOpenAIV3 creates a chat completion (POST) or gets a model (GET) with
// a real openai-go v3 client, its retries off.
func callOpenAIV3(ctx context.Context, base string, hc *http.Client, method string) error {
	client := openai.NewClient(option.WithBaseURL(base), option.WithAPIKey("sk-toolerr"),
		option.WithMaxRetries(0), option.WithHTTPClient(hc))
	if method == http.MethodGet {
		_, err := client.Models.Get(ctx, "gpt-9")
		return err
	}
	_, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Model:    openai.ChatModel("gpt-4.1"),
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Summarize the ticket.")},
	})
	return err
}
