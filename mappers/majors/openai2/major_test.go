package openai2_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/openai/openai-go/v2"
	"github.com/openai/openai-go/v2/option"

	"github.com/toolerr/toolerr/internal/sdkmajors"
)

// TestOpenAIV2LikeEveryMajor: openai-go v2's errors, from a real client,
// are classified as the shared table says, with no mapper registered: no
// mapper module is built against v2.
func TestOpenAIV2LikeEveryMajor(t *testing.T) {
	sdkmajors.Run(t, "openai", callOpenAIV2)
}

// callOpenAIV2 creates a chat completion (POST) or gets a model (GET) with
// a real openai-go v2 client, its retries off.
func callOpenAIV2(ctx context.Context, base string, hc *http.Client, method string) error {
	client := openai.NewClient(option.WithBaseURL(base), option.WithAPIKey("sk-toolerr"),
		option.WithMaxRetries(0), option.WithHTTPClient(hc))
	if method == http.MethodGet {
		_, err := client.Models.Get(ctx, "gpt-9")
		return err
	}
	_, err := client.Chat.Completions.New(ctx, openai.ChatCompletionNewParams{
		Model:    openai.ChatModelGPT4o,
		Messages: []openai.ChatCompletionMessageParamUnion{openai.UserMessage("Summarize the ticket.")},
	})
	return err
}
