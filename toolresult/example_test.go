package toolresult_test

import (
	"encoding/json"
	"fmt"
	"net"
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

// A runtime that asks for text, as agent runtimes should, still gets the
// error's members: FromResponse reads the observation back.
func ExampleFromResponse_text() {
	tool := httptest.NewServer(middleware.New()(middleware.Tool("search_orders", func(w http.ResponseWriter, r *http.Request) error {
		return toolerr.Default().New(toolerr.CodeValidationFailed, "2 arguments are invalid.").
			WithField("/limit").
			WithViolations(
				toolerr.Violation{Field: "/limit", Reason: "must be at most 100", SuggestedValue: 100},
				toolerr.Violation{Field: "/status", Reason: "must be open or closed", AllowedValues: []string{"open", "closed"}},
			).
			WithExampleRequest(map[string]any{"limit": 100, "status": "open"})
	})))
	defer tool.Close()

	req, _ := http.NewRequest(http.MethodPost, tool.URL, strings.NewReader(`{"limit":500,"status":"Open"}`))
	req.Header.Set("Accept", "text/markdown")
	req.Header.Set("X-Request-Id", "req-7")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	res, err := toolresult.FromResponse(resp)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(res.Err.Code, len(res.Err.Violations), res.Err.Violations[1].Field, res.Err.RequestID)
	fmt.Println(res.Text)
	// Output:
	// VALIDATION_FAILED 2 /status req-7
	// VALIDATION_FAILED (validation): 2 arguments are invalid.
	// retryable: false
	// field: /limit
	// violation: /limit must be at most 100, suggested_value: 100
	// violation: /status must be open or closed, allowed_values: ["open","closed"]
	// example_request: {"limit":100,"status":"open"}
	// hint: Correct every argument listed in violations: example_request has every repair applied; send it if it still means what the user asked.
	// request_id: req-7
}

// An MCP tool result's text, or any text a tool sent, read as an
// observation.
func ExampleParseObservation() {
	e, ok := toolresult.ParseObservation("**RATE_LIMITED** (rate_limit): Slow down.\n" +
		"- retryable: true, retry_after_ms: 2000, max_attempts: 3\n" +
		"- request_id: `req-9`")
	fmt.Println(ok, e.Code, e.Retryable, e.RetryAfter, e.RetryPolicy.MaxAttempts, e.RequestID)
	_, ok = toolresult.ParseObservation("RATE_LIMITED (rate_limit): Slow down.\nPlease wait.")
	fmt.Println(ok)
	// Output:
	// true RATE_LIMITED true 2s 3 req-9
	// false
}

// A tool server that is down: the agent is told so, and that the same
// call may be retried.
func ExampleFromError_refused() {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Println(err)
		return
	}
	url := "http://" + ln.Addr().String() + "/tools/search_orders"
	_ = ln.Close() // nothing listens there now

	_, err = http.Get(url)
	res := toolresult.FromError(err)
	fmt.Println(res.Text)
	// Output:
	// TOOL_UNAVAILABLE (transient): The tool refused the connection.
	// retryable: true, max_attempts: 3
	// hint: Let the orchestrator retry with backoff; do not change the arguments.
}
