package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"slices"
	"strings"
	"time"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/option"
	"github.com/openai/openai-go/v3/shared"
)

// Defaults and bounds of real-model mode.
const (
	defaultModelTasks       = 6                // tasks when -model is given without -tasks: a real model costs money
	defaultModelCallTimeout = 60 * time.Second // one Chat Completions request, the SDK's retries included
	defaultModelTurns       = 16               // model requests per task
	maxCallsPerTurn         = 8                // tool calls run from one model answer; the rest are answered "not run"
	maxToolOutputBytes      = 4 << 10          // of one tool result, as fed back to the model
	maxTranscriptBytes      = 64 << 10         // of one task's messages, all turns together
	modelSDKRetries         = 2                // the SDK's own retries of a 429, a 5xx or a dropped connection
)

// modelConfig turns on real-model mode: each agent is a Chat Completions
// loop over an OpenAI-compatible API instead of a script.
type modelConfig struct {
	Model       string        // the model name, as the API knows it
	BaseURL     string        // the API's base URL; empty for the SDK's default (https://api.openai.com/v1)
	APIKey      string        // sent only as the Authorization bearer token
	CallTimeout time.Duration // per Chat Completions request
	MaxTurns    int           // model requests per task
}

// newChatService returns the Chat Completions client of mc, sending
// through client. The options given here override what the SDK reads from
// the environment by itself.
func newChatService(mc *modelConfig, client *http.Client) openai.ChatCompletionService {
	opts := []option.RequestOption{option.WithAPIKey(mc.APIKey), option.WithMaxRetries(modelSDKRetries), option.WithHTTPClient(client)}
	if mc.BaseURL != "" {
		opts = append(opts, option.WithBaseURL(mc.BaseURL))
	}
	return openai.NewClient(opts...).Chat.Completions
}

// toolDescriptions tell the model what each tool does; the parameters are
// the tools' JSON Schemas (toolSchemas), the ones argcheck enforces.
var toolDescriptions = map[string]string{
	"lookup_inventory":       "Look up how many units of a SKU the warehouse has in stock.",
	"reserve_stock":          "Reserve stock of a SKU for an order.",
	"geocode_address":        "Geocode a delivery address typed as text, before the label is bought.",
	"geocode_address_backup": "A second geocoder, coarser, with the same arguments as geocode_address.",
	"create_shipment_label":  "Buy a shipping label for an order. Each label is charged.",
	"notify_customer":        "Send the customer the tracking details of a label.",
}

// toolDefinitions returns the function tools the model is offered, in name
// order, each with its tool's JSON Schema as parameters.
func toolDefinitions() ([]openai.ChatCompletionToolUnionParam, error) {
	names := make([]string, 0, len(toolSchemas))
	for name := range toolSchemas {
		names = append(names, name)
	}
	slices.Sort(names)
	defs := make([]openai.ChatCompletionToolUnionParam, 0, len(names))
	for _, name := range names {
		var params map[string]any
		if err := json.Unmarshal([]byte(toolSchemas[name]), &params); err != nil {
			return nil, fmt.Errorf("harbor: schema of %s: %w", name, err)
		}
		defs = append(defs, openai.ChatCompletionFunctionTool(shared.FunctionDefinitionParam{
			Name:        name,
			Description: openai.String(toolDescriptions[name]),
			Parameters:  shared.FunctionParameters(params),
		}))
	}
	return defs, nil
}

// systemPrompt is the same for both agents: they differ only in the tools
// behind the same definitions and in what their runtime feeds back.
const systemPrompt = `You are the shipment assistant of an online shop. For the order you are given:
1. look up the SKU's stock (lookup_inventory);
2. reserve the quantity (reserve_stock);
3. if a delivery address is given as text, geocode it (geocode_address);
4. buy one shipping label (create_shipment_label);
5. notify the customer with the label's id (notify_customer).
Call one tool at a time and use only the tools' results. Never buy a second label for an order.
When the customer has been notified, answer DONE.
If the order cannot be shipped without a person's decision, answer ESCALATE: followed by the reason.`

// escalationPrefix starts a final answer that hands the task to a person.
const escalationPrefix = "ESCALATE"

// taskPrompt is the user message of one task: the order as the user typed
// it, mistakes included, in prose and as JSON.
func taskPrompt(t task) (string, error) {
	order := map[string]any{"order_id": t.Order, "customer": t.Customer, "sku": t.SKU,
		"quantity": t.Quantity, "weight_kg": t.WeightKg, "service": t.Service}
	if t.Address != "" {
		order["delivery_address"] = t.Address
	}
	b, err := json.Marshal(order)
	if err != nil {
		return "", err
	}
	var p strings.Builder
	fmt.Fprintf(&p, "Ship order %s to customer %s: %d × %q, %g kg, %s service.", t.Order, t.Customer, t.Quantity, t.SKU, t.WeightKg, t.Service)
	if t.Address != "" {
		fmt.Fprintf(&p, " Deliver to %s.", t.Address)
	} else {
		p.WriteString(" The delivery address is on file.")
	}
	p.WriteString("\nOrder: ")
	p.Write(b)
	return p.String(), nil
}
