package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"regexp"
	"strings"

	"github.com/openai/openai-go/v3"
	"github.com/toolerr/toolerr/idempotency"
)

// modelAgent is an agent driven by a real model through the Chat
// Completions API: a loop that sends the task and the tool definitions,
// runs the tool calls the model answers with against the world's tool
// server, feeds back what the tool returned, and stops when the model
// answers without a tool call or a bound is reached (model turns, tool
// calls per turn, transcript size).
//
// Its runtime is the baseline's or toolerr's:
//   - baseline (toolerr false): a failed call is fed back as "error: HTTP
//     <status>" and the body the tool relayed from the carrier, as a
//     runtime that wraps plain HTTP tools does;
//   - toolerr: every result is fed back as the tool returned it, a failure
//     being toolerr's observation text (Accept: text/plain), and a label
//     is asked for with an Idempotency-Key derived from the arguments the
//     model sent (idempotency.Key), as the scripted toolerr agent does.
//
// The outcome is measured from outside, as for the scripted agents: a task
// is completed when stock was reserved and notify_customer succeeded with
// a label id some tool had returned in this task, whatever the model
// says; escalated when the model gives up with a final answer starting
// ESCALATE; failed otherwise.
type modelAgent struct {
	chat    openai.ChatCompletionService
	mc      *modelConfig
	tools   []openai.ChatCompletionToolUnionParam
	client  *http.Client // to the tool server
	base    string       // the tool server's URL
	toolerr bool
	seed    uint64
}

// labelIDs finds label ids in what a tool returned.
var labelIDs = regexp.MustCompile(`lbl_[A-Za-z0-9_-]{1,64}`)

// modelTask is the state of one task's loop: its result, the label ids the
// tools have returned and whether stock was reserved.
type modelTask struct {
	res      taskResult
	session  string
	labels   map[string]bool
	reserved bool
}

// run works through one task with the model. An error means the run
// cannot go on: the API failed (after the SDK's retries) or ctx ended.
func (a *modelAgent) run(ctx context.Context, t task) (taskResult, error) {
	prompt, err := taskPrompt(t)
	if err != nil {
		return taskResult{}, err
	}
	st := &modelTask{session: fmt.Sprintf("harbor-%d-%s", a.seed, t.Order), labels: map[string]bool{}}
	msgs := []openai.ChatCompletionMessageParamUnion{openai.SystemMessage(systemPrompt), openai.UserMessage(prompt)}
	size := len(systemPrompt) + len(prompt)
	for range a.mc.MaxTurns {
		msg, err := a.ask(ctx, msgs)
		if err != nil {
			return st.res, fmt.Errorf("harbor: model %s, order %s: %w", a.mc.Model, t.Order, err)
		}
		if len(msg.ToolCalls) == 0 {
			st.finish(msg)
			return st.res, nil
		}
		msgs = append(msgs, msg.ToParam())
		size += len(msg.Content)
		for i, call := range msg.ToolCalls {
			size += len(call.Function.Name) + len(call.Function.Arguments)
			out := fmt.Sprintf("not run: at most %d tool calls are run from one answer", maxCallsPerTurn)
			if i < maxCallsPerTurn {
				if out, err = a.execute(ctx, st, call); err != nil {
					return st.res, err
				}
			}
			out = truncate(out, maxToolOutputBytes)
			msgs = append(msgs, openai.ToolMessage(out, call.ID))
			size += len(out)
		}
		if size > maxTranscriptBytes {
			st.res.Reason = fmt.Sprintf("transcript over %d bytes", maxTranscriptBytes)
			return st.res, nil
		}
	}
	st.res.Reason = fmt.Sprintf("no final answer in %d model turns", a.mc.MaxTurns)
	return st.res, nil
}

// ask sends the conversation and returns the model's message, within the
// per-call timeout.
func (a *modelAgent) ask(ctx context.Context, msgs []openai.ChatCompletionMessageParamUnion) (openai.ChatCompletionMessage, error) {
	if err := ctx.Err(); err != nil {
		return openai.ChatCompletionMessage{}, err
	}
	ctx, cancel := context.WithTimeout(ctx, a.mc.CallTimeout)
	defer cancel()
	c, err := a.chat.New(ctx, openai.ChatCompletionNewParams{Model: a.mc.Model, Messages: msgs, Tools: a.tools})
	if err != nil {
		return openai.ChatCompletionMessage{}, err
	}
	if len(c.Choices) == 0 {
		return openai.ChatCompletionMessage{}, errors.New("the answer has no choices")
	}
	return c.Choices[0].Message, nil
}

// execute runs one tool call of the model against the tool server and
// returns the text to feed back. Its error is ctx's, when ctx ended.
func (a *modelAgent) execute(ctx context.Context, st *modelTask, call openai.ChatCompletionMessageToolCallUnion) (string, error) {
	tool, args := call.Function.Name, []byte(call.Function.Arguments)
	if _, ok := toolSchemas[tool]; !ok || call.Type != "function" {
		return fmt.Sprintf("no tool is named %q", truncate(tool, 64)), nil
	}
	key, accept := "", ""
	if a.toolerr {
		accept = "text/plain"
		if tool == "create_shipment_label" {
			// Arguments that are not JSON get no key; the tool's schema
			// check refuses them before anything is bought.
			key, _ = idempotency.Key(st.session, tool, args)
		}
	}
	status, body, err := callToolRaw(ctx, a.client, a.base, &st.res, tool, args, key, accept)
	if err != nil {
		if ctx.Err() != nil {
			return "", ctx.Err()
		}
		return "error: the tool did not answer: " + err.Error(), nil
	}
	if status < 400 {
		st.succeeded(tool, args) // before the body's label ids count: notify_customer echoes the one it was given
	}
	for _, id := range labelIDs.FindAll(body, 16) {
		st.labels[string(id)] = true
	}
	if status < 400 || a.toolerr {
		return string(body), nil
	}
	return fmt.Sprintf("error: HTTP %d\n%s", status, body), nil
}

// succeeded records a successful call: a reservation, or the customer
// notified of a label a tool returned, which completes the task.
func (st *modelTask) succeeded(tool string, args []byte) {
	switch tool {
	case "reserve_stock":
		st.reserved = true
	case "notify_customer":
		var a struct {
			LabelID string `json:"label_id"`
		}
		if json.Unmarshal(args, &a) == nil && st.labels[a.LabelID] && st.reserved {
			st.res.Completed = true
		}
	}
}

// finish records the model's final answer: an escalation, or why a task
// that did not complete stopped.
func (st *modelTask) finish(msg openai.ChatCompletionMessage) {
	answer := strings.TrimSpace(msg.Content)
	switch {
	case st.res.Completed:
	case strings.HasPrefix(strings.ToUpper(answer), escalationPrefix):
		st.res.Escalated = true
		st.res.Reason = truncate("escalated: "+answer, 200)
	case msg.Refusal != "":
		st.res.Reason = truncate("refused: "+msg.Refusal, 200)
	default:
		st.res.Reason = truncate("stopped: "+answer, 200)
	}
}
