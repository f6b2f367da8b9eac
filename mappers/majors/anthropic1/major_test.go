package anthropic1_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/anthropics/anthropic-sdk-go"
	"github.com/anthropics/anthropic-sdk-go/option"

	"github.com/toolerr/toolerr/internal/sdkmajors"
)

// TestAnthropicV1LikeEveryMajor: anthropic-sdk-go v1's errors, from a real
// client, are classified as the shared table says, with no mapper
// registered: no mapper module is built against v1.
func TestAnthropicV1LikeEveryMajor(t *testing.T) {
	sdkmajors.Run(t, "anthropic", callAnthropicV1)
}

// callAnthropicV1 creates a message (POST) or gets a model (GET) with a
// real anthropic-sdk-go v1 client, its retries off.
func callAnthropicV1(ctx context.Context, base string, hc *http.Client, method string) error {
	client := anthropic.NewClient(option.WithBaseURL(base), option.WithAPIKey("sk-ant-toolerr"),
		option.WithMaxRetries(0), option.WithHTTPClient(hc))
	if method == http.MethodGet {
		_, err := client.Models.Get(ctx, "claude-9", anthropic.ModelGetParams{})
		return err
	}
	_, err := client.Messages.New(ctx, anthropic.MessageNewParams{
		Model:     anthropic.Model("claude-sonnet-4-5"),
		MaxTokens: 64,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Summarize the ticket."))},
	})
	return err
}
