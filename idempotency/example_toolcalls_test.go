package idempotency_test

import (
	"context"
	"fmt"

	"github.com/toolerr/toolerr/idempotency"
)

// An agent retries create_shipment_label with the same key over MCP: it
// gets the first label back. Without a key, the identical call moments
// later is refused as a duplicate. The label is paid for twice only
// because the agent asked twice on purpose (keyed, then keyless).
func ExampleToolCalls() {
	calls := idempotency.NewToolCalls(idempotency.NewMemoryStore())
	labels := 0
	createLabel := func(context.Context) (result []byte, keep bool) {
		labels++
		return fmt.Appendf(nil, `{"label":"lbl-%d"}`, labels), true
	}
	call := idempotency.ToolCall{
		Principal: "session-7", // who calls: keys and the guard are scoped by it
		Tool:      "create_shipment_label",
		Arguments: []byte(`{"to":"Oslo","kg":2}`),
		Key:       "9f1c7e2a-label-oslo",
	}
	for range 2 {
		result, replayed, refusal := calls.Do(context.Background(), call, true, createLabel)
		fmt.Println(string(result), "replayed:", replayed, "refused:", refusal != nil)
	}
	call.Key = ""
	for range 2 {
		result, _, refusal := calls.Do(context.Background(), call, true, createLabel)
		if refusal != nil {
			fmt.Println(refusal.Code)
			continue
		}
		fmt.Println(string(result))
	}
	fmt.Println("labels paid for:", labels)
	// Output:
	// {"label":"lbl-1"} replayed: false refused: false
	// {"label":"lbl-1"} replayed: true refused: false
	// {"label":"lbl-2"}
	// DUPLICATE_ACTION
	// labels paid for: 2
}
