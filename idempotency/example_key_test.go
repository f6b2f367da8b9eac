package idempotency_test

import (
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/toolerr/toolerr/idempotency"
)

// toolCall is a tool call as an agent runtime sees it.
type toolCall struct {
	Name      string
	Arguments json.RawMessage
}

// keyRequest sets the idempotency key of the HTTP request that carries call:
// a retry of the same call in the same session sends the same key.
func keyRequest(sessionID string, call toolCall, req *http.Request) error {
	key, err := idempotency.Key(sessionID, "create_invoice", call.Arguments)
	if err != nil {
		return err // malformed arguments: reject the call
	}
	req.Header.Set("Idempotency-Key", key)
	return nil
}

// An agent runtime derives the key of each mutating call from the session,
// the tool and the arguments, so its retries are recognised.
func ExampleKey_request() {
	call := toolCall{Name: "create_invoice", Arguments: json.RawMessage(`{"amount":10,"currency":"EUR"}`)}
	first, _ := http.NewRequest(http.MethodPost, "https://tools.example.com/tools/create_invoice", nil)
	retry, _ := http.NewRequest(http.MethodPost, "https://tools.example.com/tools/create_invoice", nil)
	fmt.Println(keyRequest("sess_42", call, first), keyRequest("sess_42", call, retry))
	fmt.Println(first.Header.Get("Idempotency-Key") == retry.Header.Get("Idempotency-Key"))
	fmt.Println(keyRequest("sess_42", toolCall{Arguments: json.RawMessage(`{"amount":`)}, first) != nil)
	// Output:
	// <nil> <nil>
	// true
	// true
}
