package toolresult_test

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/toolresult"
)

// An agent runtime calls an HTTP tool and hands the outcome to the model
// as Anthropic's tool_result block.
func ExampleFromResponse() {
	tool := httptest.NewServer(middleware.New()(middleware.Tool("search_orders", func(w http.ResponseWriter, r *http.Request) error {
		return toolerr.Default().New(toolerr.CodeValidationFailed, "limit must be at most 100").
			WithField("limit").WithSuggestedValue(100).WithHint("Set limit to 100 or less.")
	})))
	defer tool.Close()

	resp, err := http.Post(tool.URL, "application/json", strings.NewReader(`{"limit":500}`))
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := toolresult.FromResponse(resp)
	if err != nil {
		fmt.Println(err)
		return
	}
	block := res.AnthropicToolResult("toolu_01A09q90qw90lq917835lq9")
	b, _ := json.Marshal(block.IsError)
	fmt.Println("is_error:", string(b))
	text := block.Content[0].Text
	fmt.Println(text[:strings.LastIndex(text, "\n")]) // all but the request id line
	// Output:
	// is_error: true
	// VALIDATION_FAILED (validation): limit must be at most 100
	// retryable: false
	// field: limit
	// suggested_value: 100
	// hint: Set limit to 100 or less.
}

// An in-process tool's error, as OpenAI's function_call_output item.
func ExampleFromError() {
	err := toolerr.Default().New(toolerr.CodeNotFound, "order ord-9 does not exist.").WithRequestID("req-42")
	item := toolresult.FromError(err).OpenAIFunctionCallOutput("call_12345xyz")
	b, _ := json.Marshal(item)
	fmt.Println(string(b))
	// Output:
	// {"type":"function_call_output","call_id":"call_12345xyz","output":"NOT_FOUND (not_found): order ord-9 does not exist.\nretryable: false\nhint: Do not retry with the same identifier. Look the resource up another way (search or list), or ask the user for the correct identifier.\nrequest_id: req-42"}
}
