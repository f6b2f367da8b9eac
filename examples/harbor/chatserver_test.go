package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// chatServer is a loopback server that answers like the Chat Completions
// API, with the scripted model of scriptedModel in place of a real one.
// It checks every request as the API would: the bearer key, the model, the
// six tools declared with their JSON Schemas, and a conversation in which
// every tool result answers a tool call this server issued, in order. A
// request that breaks a rule gets a 400 in the API's error shape, which
// fails the run, and the rule is recorded in problems. It records every
// request body and every tool call it answered with.
type chatServer struct {
	srv   *httptest.Server
	key   string
	model string
	tools map[string]any // name → parameters, as declared by the harbor

	mu       sync.Mutex
	issued   map[string]bool // tool call ids answered so far
	bodies   []string        // every request body, as received
	calls    []issuedCall    // every tool call answered with, in order
	problems []string
}

// issuedCall is one tool call the scripted model answered with.
type issuedCall struct {
	Order, Tool string
	Args        map[string]any
}

// newChatServer starts a chat server on loopback that accepts key and
// model; it stops when the test ends.
func newChatServer(t *testing.T, key, model string) *chatServer {
	t.Helper()
	s := &chatServer{key: key, model: model, issued: map[string]bool{}, tools: map[string]any{}}
	for name, schema := range toolSchemas {
		var params any
		if err := json.Unmarshal([]byte(schema), &params); err != nil {
			t.Fatal(err)
		}
		s.tools[name] = params
	}
	s.srv = httptest.NewServer(http.HandlerFunc(s.serve))
	t.Cleanup(s.srv.Close)
	return s
}

// baseURL is the server's OPENAI_BASE_URL.
func (s *chatServer) baseURL() string { return s.srv.URL + "/v1" }

// chatRequest is the part of a Chat Completions request the server reads.
type chatRequest struct {
	Model    string `json:"model"`
	Messages []struct {
		Role       string          `json:"role"`
		Content    json.RawMessage `json:"content"`
		ToolCallID string          `json:"tool_call_id"`
		ToolCalls  []struct {
			ID       string `json:"id"`
			Type     string `json:"type"`
			Function struct {
				Name      string `json:"name"`
				Arguments string `json:"arguments"`
			} `json:"function"`
		} `json:"tool_calls"`
	} `json:"messages"`
	Tools []struct {
		Type     string `json:"type"`
		Function struct {
			Name       string `json:"name"`
			Parameters any    `json:"parameters"`
		} `json:"function"`
	} `json:"tools"`
}

// serve answers one request.
func (s *chatServer) serve(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(io.LimitReader(r.Body, 1<<22))
	s.mu.Lock()
	defer s.mu.Unlock()
	s.bodies = append(s.bodies, string(body))
	switch {
	case err != nil:
		s.reject(w, http.StatusBadRequest, "unreadable body: "+err.Error())
		return
	case r.Method != http.MethodPost || r.URL.Path != "/v1/chat/completions":
		s.reject(w, http.StatusNotFound, "no route "+r.Method+" "+r.URL.Path)
		return
	case r.Header.Get("Authorization") != "Bearer "+s.key:
		s.reject(w, http.StatusUnauthorized, "Incorrect API key provided")
		return
	}
	for name, values := range r.Header {
		if name != "Authorization" && strings.Contains(strings.Join(values, " "), s.key) {
			s.reject(w, http.StatusBadRequest, "the API key is in header "+name)
			return
		}
	}
	if strings.Contains(r.URL.String(), s.key) || strings.Contains(string(body), s.key) {
		s.reject(w, http.StatusBadRequest, "the API key is in the URL or the body")
		return
	}
	var req chatRequest
	if err := json.Unmarshal(body, &req); err != nil {
		s.reject(w, http.StatusBadRequest, "body is not JSON: "+err.Error())
		return
	}
	order, exchanges, problem := s.read(req)
	if problem != "" {
		s.reject(w, http.StatusBadRequest, problem)
		return
	}
	tool, args, final := scriptedModel(order, exchanges)
	n := len(s.bodies)
	msg := map[string]any{"role": "assistant", "content": final, "refusal": nil}
	finish := "stop"
	if tool != "" {
		a, err := json.Marshal(args)
		if err != nil {
			s.reject(w, http.StatusInternalServerError, err.Error())
			return
		}
		id := fmt.Sprintf("call_%d", n)
		s.issued[id] = true
		s.calls = append(s.calls, issuedCall{Order: order.Order, Tool: tool, Args: args})
		msg["content"], finish = nil, "tool_calls"
		msg["tool_calls"] = []any{map[string]any{"id": id, "type": "function",
			"function": map[string]any{"name": tool, "arguments": string(a)}}}
	}
	w.Header().Set("Content-Type", "application/json")
	_ = json.NewEncoder(w).Encode(map[string]any{
		"id": fmt.Sprintf("chatcmpl-%d", n), "object": "chat.completion", "created": 1764201600, "model": req.Model,
		"choices": []any{map[string]any{"index": 0, "finish_reason": finish, "message": msg, "logprobs": nil}},
		"usage":   map[string]any{"prompt_tokens": len(body) / 4, "completion_tokens": 20, "total_tokens": len(body)/4 + 20},
	})
}

// reject answers with the API's error shape and records the problem.
func (s *chatServer) reject(w http.ResponseWriter, status int, problem string) {
	s.problems = append(s.problems, problem)
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	_ = json.NewEncoder(w).Encode(map[string]any{"error": map[string]any{
		"message": problem, "type": "invalid_request_error", "param": nil, "code": nil}})
}

// read checks a request's model, tools and conversation, and returns the
// order of its user message and its tool calls with their results; or
// the first rule it breaks.
func (s *chatServer) read(req chatRequest) (order scriptedOrder, exchanges []exchange, problem string) {
	if req.Model != s.model {
		return order, nil, fmt.Sprintf("model %q, want %q", req.Model, s.model)
	}
	declared := map[string]any{}
	for _, tl := range req.Tools {
		if tl.Type != "function" {
			return order, nil, "a tool of type " + tl.Type
		}
		declared[tl.Function.Name] = tl.Function.Parameters
	}
	if !reflect.DeepEqual(declared, s.tools) {
		return order, nil, "the tools are not the harbor's six with their schemas"
	}
	m := req.Messages
	if len(m) < 2 || m[0].Role != "system" || m[1].Role != "user" {
		return order, nil, "the conversation does not open with a system and a user message"
	}
	var prompt string
	if json.Unmarshal(m[1].Content, &prompt) != nil {
		return order, nil, "the user message is not text"
	}
	_, orderJSON, found := strings.Cut(prompt, "\nOrder: ")
	if !found || json.Unmarshal([]byte(orderJSON), &order) != nil {
		return order, nil, "the user message holds no order"
	}
	for i := 2; i < len(m); {
		if m[i].Role != "assistant" || len(m[i].ToolCalls) == 0 {
			return order, nil, fmt.Sprintf("message %d: %s without tool calls where an assistant's call belongs", i, m[i].Role)
		}
		calls := m[i].ToolCalls
		i++
		for _, c := range calls {
			if !s.issued[c.ID] {
				return order, nil, "tool call id " + c.ID + " was never issued"
			}
			if i >= len(m) || m[i].Role != "tool" || m[i].ToolCallID != c.ID {
				return order, nil, fmt.Sprintf("message %d: not the result of tool call %s", i, c.ID)
			}
			var args map[string]any
			var content string
			if json.Unmarshal([]byte(c.Function.Arguments), &args) != nil || json.Unmarshal(m[i].Content, &content) != nil {
				return order, nil, fmt.Sprintf("message %d: arguments or result unreadable", i)
			}
			exchanges = append(exchanges, exchange{Tool: c.Function.Name, Args: args, Result: content})
			i++
		}
	}
	return order, exchanges, ""
}

// requests returns every request body the server received.
func (s *chatServer) requests() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.bodies...)
}

// issuedCalls returns every tool call the server answered with.
func (s *chatServer) issuedCalls() []issuedCall {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]issuedCall(nil), s.calls...)
}

// rejected returns the rules the requests broke.
func (s *chatServer) rejected() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.problems...)
}
