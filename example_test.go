package toolerr_test

import (
	"fmt"
	"net/http/httptest"
	"time"

	"github.com/toolerr/toolerr"
)

// A tool rejects an argument with everything the agent needs to fix it.
func ExampleWrite() {
	req := httptest.NewRequest("POST", "/tools/search_orders", nil)
	req = req.WithContext(toolerr.WithRequestID(req.Context(), "req-42"))
	rec := httptest.NewRecorder()

	toolerr.Write(rec, req, toolerr.Default().New(toolerr.CodeValidationFailed, "limit must be at most 100; got 500.").
		WithField("limit").
		WithAllowedValues(toolerr.Range{Minimum: 1, Maximum: 100}).
		WithSuggestedValue(100))

	fmt.Println(rec.Code, rec.Header().Get("Content-Type"), rec.Header().Get("X-Request-Id"))
	e, _ := toolerr.Parse(rec.Body.Bytes())
	fmt.Println(e.Code, e.Category, e.Field, e.SuggestedValue, e.Retryable)
	// Output:
	// 400 application/problem+json req-42
	// VALIDATION_FAILED validation limit 100 false
}

// Services register their own codes in a registry that extends the default.
func ExampleRegistry_Register() {
	reg := toolerr.NewRegistry(toolerr.Default(), toolerr.WithDocsBase("https://docs.example.com/errors/"))
	err := reg.Register(toolerr.Def{
		Code:      "AMOUNT_EXCEEDS_REFUNDABLE",
		Category:  toolerr.CategoryValidation,
		Status:    422,
		Title:     "The refund is larger than what can be refunded",
		Hint:      "Refund at most details.refundable_balance_minor.",
		HumanHint: "The refund amount is more than what was paid.",
	})
	fmt.Println(err)
	e := reg.New("AMOUNT_EXCEEDS_REFUNDABLE", "").WithDetails(map[string]any{"refundable_balance_minor": 1250})
	fmt.Println(e.Code, e.Status, e.Type)
	// Output:
	// <nil>
	// AMOUNT_EXCEEDS_REFUNDABLE 422 https://docs.example.com/errors/AMOUNT_EXCEEDS_REFUNDABLE
}

// Validate checks a rendered error against the contract, for services' own tests.
func ExampleValidate() {
	ok := toolerr.Default().New(toolerr.CodeRateLimited, "").WithRetryAfter(2 * time.Second).WithRequestID("r1")
	fmt.Println(toolerr.Validate(ok.AppendJSON(nil)))
	fmt.Println(toolerr.Validate([]byte(`{"code":"oops","request_id":"r1"}`)) != nil)
	// Output:
	// <nil>
	// true
}
