package translate_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/translate"
)

// An in-house billing API gets a translator in a few lines: where its
// errors come from, how to read them, and what its codes mean.
func ExampleVendor() {
	billing := &translate.Vendor{
		Name:      "billing",
		HostNames: []string{"billing.example.com"},
		Parse: func(r *translate.Raw) (classify.Outcome, bool) {
			var body struct {
				Code    string `json:"code"`
				Message string `json:"message"`
				Field   string `json:"field"`
			}
			if json.Unmarshal(r.Body, &body) != nil || body.Code == "" {
				return classify.Outcome{}, false
			}
			return classify.Outcome{VendorCode: body.Code, Message: body.Message, Field: body.Field}, true
		},
		CodeTable: map[string]string{
			"ACCOUNT_FROZEN": toolerr.CodePolicyBlocked,
			"BAD_AMOUNT":     toolerr.CodeValidationFailed,
		},
	}
	set, err := translate.NewSet(nil, translate.WithTranslators(billing))
	if err != nil {
		panic(err)
	}

	// What the billing API answered to a POST /v1/charges.
	resp := &http.Response{
		StatusCode: http.StatusUnprocessableEntity,
		Header:     http.Header{"Content-Type": {"application/json"}},
		Body:       io.NopCloser(strings.NewReader(`{"code":"BAD_AMOUNT","message":"amount must be positive","field":"amount"}`)),
		Request:    httptest.NewRequest("POST", "https://billing.example.com/v1/charges", nil),
	}

	var e *toolerr.Error
	if errors.As(set.Response(resp), &e) {
		fmt.Println(e.Code, e.Category, e.Field)
		fmt.Println(e.Upstream.Vendor, e.Upstream.Status, e.Upstream.Code)
	}
	// Output:
	// VALIDATION_FAILED validation amount
	// billing 422 BAD_AMOUNT
}
