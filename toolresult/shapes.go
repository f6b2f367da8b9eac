package toolresult

// OpenAIFunctionCallOutput is the Responses API's input item that returns
// a function call's output to the model: {"type":"function_call_output",
// "call_id":…,"output":…}. It has no error flag: the observation's first
// line names the error code.
type OpenAIFunctionCallOutput struct {
	Type   string `json:"type"`
	CallID string `json:"call_id"`
	Output string `json:"output"`
}

// OpenAIFunctionCallOutput returns r for the call callID.
func (r Result) OpenAIFunctionCallOutput(callID string) OpenAIFunctionCallOutput {
	return OpenAIFunctionCallOutput{Type: "function_call_output", CallID: callID, Output: r.Text}
}

// OpenAIToolMessage is the Chat Completions message that answers a tool
// call: {"role":"tool","tool_call_id":…,"content":…}.
type OpenAIToolMessage struct {
	Role       string `json:"role"`
	ToolCallID string `json:"tool_call_id"`
	Content    string `json:"content"`
}

// OpenAIToolMessage returns r for the tool call toolCallID.
func (r Result) OpenAIToolMessage(toolCallID string) OpenAIToolMessage {
	return OpenAIToolMessage{Role: "tool", ToolCallID: toolCallID, Content: r.Text}
}

// AnthropicToolResult is the Messages API's tool_result content block:
// {"type":"tool_result","tool_use_id":…,"content":[{"type":"text",
// "text":…}],"is_error":true}; is_error is left out on success.
type AnthropicToolResult struct {
	Type      string          `json:"type"`
	ToolUseID string          `json:"tool_use_id"`
	Content   []AnthropicText `json:"content"`
	IsError   bool            `json:"is_error,omitempty"`
}

// AnthropicText is a text content block.
type AnthropicText struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

// AnthropicToolResult returns r for the tool use toolUseID.
func (r Result) AnthropicToolResult(toolUseID string) AnthropicToolResult {
	return AnthropicToolResult{
		Type: "tool_result", ToolUseID: toolUseID,
		Content: []AnthropicText{{Type: "text", Text: r.Text}},
		IsError: r.IsError,
	}
}
