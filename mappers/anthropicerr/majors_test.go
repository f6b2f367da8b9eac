package anthropicerr_test

import (
	"context"
	"net/http"
	"testing"

	"github.com/anthropics/anthropic-sdk-go/v2"
	"github.com/anthropics/anthropic-sdk-go/v2/option"

	"github.com/toolerr/toolerr/internal/sdkmajors"
	"github.com/toolerr/toolerr/mappers/anthropicerr"
	"github.com/toolerr/toolerr/middleware"
)

// TestAnthropicV2LikeEveryMajor: anthropic-sdk-go v2's errors, from a real
// client, are classified as the shared table says, as v1's are
// (mappers/majors/anthropic1), with the mapper registered or not.
func TestAnthropicV2LikeEveryMajor(t *testing.T) {
	t.Run("no-mapper", func(t *testing.T) { sdkmajors.Run(t, anthropicerr.Vendor, callAnthropicV2) })
	t.Run("mapper", func(t *testing.T) {
		sdkmajors.Run(t, anthropicerr.Vendor, callAnthropicV2, middleware.WithErrorMappers(anthropicerr.Mapper()))
	})
}

// callAnthropicV2 creates a message (POST) or gets a model (GET) with a
// real anthropic-sdk-go v2 client, its retries off.
func callAnthropicV2(ctx context.Context, base string, hc *http.Client, method string) error {
	client := anthropic.NewClient(option.WithBaseURL(base), option.WithAPIKey("sk-ant-toolerr"),
		option.WithMaxRetries(0), option.WithHTTPClient(hc))
	if method == http.MethodGet {
		_, err := client.Models.Get(ctx, "claude-9", anthropic.ModelGetParams{})
		return err
	}
	_, err := client.Messages.New(ctx, anthropic.MessageNewParams{
		Model:     anthropic.Model("claude-sonnet-5-5"),
		MaxTokens: 64,
		Messages:  []anthropic.MessageParam{anthropic.NewUserMessage(anthropic.NewTextBlock("Summarize the ticket."))},
	})
	return err
}
