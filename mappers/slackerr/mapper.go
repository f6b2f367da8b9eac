package slackerr

import (
	"encoding/json"
	"errors"
	"net/http"

	"github.com/slack-go/slack"

	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/translate"
)

// Vendor is upstream.vendor of the errors the mapper reads, and the name
// under which package translate registers Slack's code table.
const Vendor = "slack"

// rateLimited is the error token Slack answers a rate limit with (Slack
// Web API, "Rate limits": HTTP 429, "error": "ratelimited").
const rateLimited = "ratelimited"

// mapper is the slack-go ErrorMapper.
type mapper struct{}

// Mapper returns the mapper of slack-go's errors: add it with
// classify.WithErrorMappers, or the middleware's and mcptool's
// WithErrorMappers.
func Mapper() classify.ErrorMapper { return mapper{} }

// MapError reads the first slack-go error in err's chain: a
// *slack.RateLimitedError, a slack.SlackErrorResponse (value or pointer)
// or a slack.StatusCodeError. An error with none is not the mapper's.
func (mapper) MapError(err error) (classify.Outcome, bool) {
	if rl, ok := errors.AsType[*slack.RateLimitedError](err); ok {
		o := classify.Outcome{Vendor: Vendor, Status: http.StatusTooManyRequests, VendorCode: rateLimited}
		o.Evidence.RateLimited = true
		o.Delay = max(rl.RetryAfter, 0)
		return o, true
	}
	if er, ok := errors.AsType[slack.SlackErrorResponse](err); ok {
		return read(er), true
	}
	if er, ok := errors.AsType[*slack.SlackErrorResponse](err); ok && er != nil {
		return read(*er), true
	}
	if sc, ok := errors.AsType[slack.StatusCodeError](err); ok {
		return classify.Outcome{Vendor: Vendor, Status: sc.Code}, true
	}
	return classify.Outcome{}, false
}

// envelope is Slack's error envelope as slack-go decoded it, encoded again
// for translate's Slack rules.
type envelope struct {
	OK       bool                        `json:"ok"`
	Error    string                      `json:"error"`
	Errors   []slack.SlackResponseErrors `json:"errors,omitempty"`
	Metadata struct {
		Messages []string `json:"messages,omitempty"`
		Warnings []string `json:"warnings,omitempty"`
	} `json:"response_metadata"`
	Needed   string `json:"needed,omitempty"`
	Provided string `json:"provided,omitempty"`
}

// read classifies an ok:false envelope by translate's Slack rules. Slack
// answers it with HTTP 200, which slack-go does not keep: the status is
// 200. A failure that may have partly run is marked UnknownOutcome, so the
// classifier retries it only for an idempotent call.
func read(er slack.SlackErrorResponse) classify.Outcome {
	fallback := classify.Outcome{Vendor: Vendor, VendorCode: er.Err}
	set := translate.Default()
	env := envelope{Error: er.Err, Errors: er.Errors, Needed: er.Needed, Provided: er.Provided}
	env.Metadata.Messages, env.Metadata.Warnings = er.ResponseMetadata.Messages, er.ResponseMetadata.Warnings
	body, err := json.Marshal(env)
	if err != nil {
		return fallback
	}
	raw := func(method string) *translate.Raw {
		return &translate.Raw{Method: method, Vendor: Vendor, Status: http.StatusOK, Body: body}
	}
	o, ok := set.Translate(raw(""))
	if !ok {
		return fallback
	}
	// The rules advise against retrying a failure that may have run only
	// for a call that is not idempotent; the mapper does not know the
	// call, so it asks the rules as for a POST and leaves the decision to
	// the classifier, which does.
	if post, _ := set.Translate(raw(http.MethodPost)); post.Evidence.Retry != o.Evidence.Retry {
		o.UnknownOutcome = true
	}
	o.Vendor = Vendor
	if o.VendorCode == rateLimited {
		o.Evidence.RateLimited = true
	}
	return o
}
