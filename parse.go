package toolerr

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"time"
)

// wireError is the decoding shape of a rendered error.
type wireError struct {
	Type           string         `json:"type"`
	Title          string         `json:"title"`
	Status         int            `json:"status"`
	Detail         string         `json:"detail"`
	Instance       string         `json:"instance"`
	Code           string         `json:"code"`
	Category       Category       `json:"category"`
	Severity       Severity       `json:"severity"`
	Retryable      bool           `json:"retryable"`
	RetryAfterMS   int64          `json:"retry_after_ms"`
	Field          string         `json:"field"`
	AllowedValues  any            `json:"allowed_values"`
	SuggestedValue any            `json:"suggested_value"`
	Hint           string         `json:"hint"`
	HumanHint      string         `json:"human_hint"`
	Suggestions    []string       `json:"suggestions"`
	Actions        []string       `json:"actions"`
	DocsURL        string         `json:"docs_url"`
	RelatedCodes   []string       `json:"related_codes"`
	Details        map[string]any `json:"details"`
	ExampleRequest any            `json:"example_request"`
	RetryPolicy    *struct {
		Strategy            RetryStrategy `json:"strategy"`
		BaseMS              int64         `json:"base_ms"`
		MaxAttempts         int           `json:"max_attempts"`
		IdempotencyRequired bool          `json:"idempotency_required"`
	} `json:"retry_policy"`
	Intent *struct {
		Operation  string `json:"operation"`
		ResourceID string `json:"resource_id"`
		State      string `json:"state"`
		Recovery   string `json:"recovery"`
	} `json:"intent"`
	Tool     string `json:"tool"`
	Upstream *struct {
		Vendor    string `json:"vendor"`
		Status    int    `json:"status"`
		Code      string `json:"code"`
		RequestID string `json:"request_id"`
		Attempts  int    `json:"attempts"`
	} `json:"upstream"`
	Errors []struct {
		Index *int `json:"index"`
		wireError
	} `json:"errors"`
	Violations []struct {
		Field          string `json:"field"`
		Reason         string `json:"reason"`
		AllowedValues  any    `json:"allowed_values"`
		SuggestedValue any    `json:"suggested_value"`
	} `json:"violations"`
	TraceID   string `json:"trace_id"`
	RequestID string `json:"request_id"`
}

// ErrNotAnError is returned by [Parse] for a JSON body that is not a
// rendered toolerr error (no valid code, category or status).
var ErrNotAnError = errors.New("toolerr: body is not a toolerr error")

// Parse reads either rendering, the problem object or the envelope, back into
// an *Error. Clients use it on responses, and the middleware to recognise a
// body that is already a toolerr error. A body over [MaxBodyLen], invalid
// JSON, an unknown category or severity, or a member of the wrong type is an
// error; so is a body without a valid code, category and 4xx/5xx status
// ([ErrNotAnError]). Numbers inside JSON-valued members decode as json.Number.
func Parse(body []byte) (*Error, error) {
	if len(body) > MaxBodyLen {
		return nil, fmt.Errorf("toolerr: parse: body of %d bytes is over the %d-byte limit", len(body), MaxBodyLen)
	}
	var top struct {
		OK    *bool           `json:"ok"`
		Error json.RawMessage `json:"error"`
		wireError
	}
	if err := decodeStrictNumbers(body, &top); err != nil {
		return nil, fmt.Errorf("toolerr: parse: %w", err)
	}
	w := &top.wireError
	if top.OK != nil {
		if *top.OK || len(top.Error) == 0 {
			return nil, ErrNotAnError
		}
		w = &wireError{}
		if err := decodeStrictNumbers(top.Error, w); err != nil {
			return nil, fmt.Errorf("toolerr: parse envelope: %w", err)
		}
	}
	e := w.toError()
	if !ValidCode(e.Code) || !e.Category.Valid() || e.Status < 400 || e.Status > 599 {
		return nil, ErrNotAnError
	}
	return e, nil
}

// UnmarshalJSON implements json.Unmarshaler for the problem object rendering.
func (e *Error) UnmarshalJSON(b []byte) error {
	var w wireError
	if err := decodeStrictNumbers(b, &w); err != nil {
		return err
	}
	*e = *w.toError()
	return nil
}

// decodeStrictNumbers decodes the one JSON value of b into v, numbers as
// json.Number. Anything but whitespace after the value is an error.
// (Decoder.More is no test for that: it reports false before a stray
// closing brace or bracket.)
func decodeStrictNumbers(b []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(b))
	dec.UseNumber()
	if err := dec.Decode(v); err != nil {
		return err
	}
	if rest := b[dec.InputOffset():]; len(bytes.TrimLeft(rest, " \t\r\n")) != 0 {
		return errors.New("trailing data after the JSON value")
	}
	return nil
}

func (w *wireError) toError() *Error {
	e := &Error{
		Type: w.Type, Title: w.Title, Status: w.Status, Detail: w.Detail, Instance: w.Instance,
		Code: w.Code, Category: w.Category, Severity: w.Severity, Retryable: w.Retryable,
		RetryAfter: msToDuration(w.RetryAfterMS), Field: w.Field,
		AllowedValues: w.AllowedValues, SuggestedValue: w.SuggestedValue,
		Hint: w.Hint, HumanHint: w.HumanHint, Suggestions: w.Suggestions, Actions: w.Actions,
		DocsURL: w.DocsURL, RelatedCodes: w.RelatedCodes, Details: w.Details,
		ExampleRequest: w.ExampleRequest, Tool: w.Tool, TraceID: w.TraceID, RequestID: w.RequestID,
	}
	if p := w.RetryPolicy; p != nil {
		e.RetryPolicy = &RetryPolicy{Strategy: p.Strategy, BaseDelay: msToDuration(p.BaseMS),
			MaxAttempts: p.MaxAttempts, IdempotencyRequired: p.IdempotencyRequired}
	}
	if in := w.Intent; in != nil {
		e.Intent = &Intent{Operation: in.Operation, ResourceID: in.ResourceID, State: in.State, Recovery: in.Recovery}
	}
	if u := w.Upstream; u != nil {
		e.Upstream = &Upstream{Vendor: u.Vendor, Status: u.Status, Code: u.Code, RequestID: u.RequestID, Attempts: u.Attempts}
	}
	for _, v := range w.Violations {
		e.Violations = append(e.Violations, Violation{Field: v.Field, Reason: v.Reason,
			AllowedValues: v.AllowedValues, SuggestedValue: v.SuggestedValue})
	}
	for _, it := range w.Errors {
		if it.Index == nil {
			continue
		}
		e.Errors = append(e.Errors, ItemError{Index: *it.Index, Err: it.wireError.toError()})
	}
	return e
}

// msToDuration converts wire milliseconds, clamping what a Duration cannot hold.
func msToDuration(ms int64) time.Duration {
	const maxMS = int64(1<<63-1) / int64(time.Millisecond)
	if ms <= 0 {
		return 0
	}
	return time.Duration(min(ms, maxMS)) * time.Millisecond
}
