package openai1_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/openai/openai-go"
	"github.com/openai/openai-go/option"

	"github.com/toolerr/toolerr/internal/sdkmajors"
)

// TestOpenAIV1LikeEveryMajor: openai-go v1's errors, from a real client,
// are classified as the shared table says, with no mapper registered: no
// mapper module is built against v1.
func TestOpenAIV1LikeEveryMajor(t *testing.T) {
	sdkmajors.Run(t, "openai", callOpenAIV1)
}

// callOpenAIV1 creates a chat completion (POST) or gets a model (GET) with
// a real openai-go v1 client, its retries off.
func callOpenAIV1(ctx context.Context, base string, hc *http.Client, method string) error {
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
