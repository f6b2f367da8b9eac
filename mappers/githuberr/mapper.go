package githuberr

import (
	"encoding/json"
	"errors"
	"net/http"
	"time"

	"github.com/google/go-github/v90/github"

	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/translate"
)

// Vendor is upstream.vendor of the errors the mapper reads, and the name
// under which package translate registers GitHub's code table.
const Vendor = "github"

// secondaryWait is how long GitHub asks a client to wait after a secondary
// rate limit that names no delay: GitHub REST API docs, "Rate limits for
// the REST API": "wait for at least one minute before retrying".
const secondaryWait = time.Minute

// mapper is the go-github ErrorMapper.
type mapper struct{}

// Mapper returns the mapper of go-github's errors: add it with
// classify.WithErrorMappers, or the middleware's and mcptool's
// WithErrorMappers.
func Mapper() classify.ErrorMapper { return mapper{} }

// MapError reads the first go-github error in err's chain: a
// *github.RateLimitError (a primary rate limit), a
// *github.AbuseRateLimitError (a secondary one) or a
// *github.ErrorResponse. An error with none is not the mapper's.
func (mapper) MapError(err error) (classify.Outcome, bool) {
	if rl, ok := errors.AsType[*github.RateLimitError](err); ok {
		o := read(rl.Response, body{Message: rl.Message})
		o.Evidence.RateLimited = true
		if d := time.Until(rl.Rate.Reset.Time); !rl.Rate.Reset.IsZero() && d > 0 {
			o.Delay = d
		}
		return o, true
	}
	if al, ok := errors.AsType[*github.AbuseRateLimitError](err); ok {
		o := read(al.Response, body{Message: al.Message})
		o.Evidence.RateLimited = true
		o.Delay = secondaryWait
		if al.RetryAfter != nil && *al.RetryAfter > 0 {
			o.Delay = *al.RetryAfter
		}
		return o, true
	}
	if er, ok := errors.AsType[*github.ErrorResponse](err); ok {
		o := read(er.Response, body{Message: er.Message, Errors: er.Errors, DocumentationURL: er.DocumentationURL})
		if er.Block != nil && er.Block.Reason != "" {
			if o.Details == nil {
				o.Details = map[string]any{}
			}
			o.Details["block_reason"] = er.Block.Reason
		}
		return o, true
	}
	return classify.Outcome{}, false
}

// body is GitHub's error body as go-github decoded it, encoded again for
// translate's GitHub rules.
type body struct {
	Message          string         `json:"message,omitempty"`
	Errors           []github.Error `json:"errors,omitempty"`
	DocumentationURL string         `json:"documentation_url,omitempty"`
}

// read classifies the response behind a go-github error by translate's
// GitHub rules: status, headers and the decoded body. Without a response
// (an error built by hand) only the message is known.
func read(resp *http.Response, b body) classify.Outcome {
	fallback := classify.Outcome{Vendor: Vendor, Message: b.Message}
	set := translate.Default()
	if resp == nil || resp.StatusCode < 400 {
		return fallback
	}
	raw, err := json.Marshal(b)
	if err != nil {
		return fallback
	}
	o, ok := set.Translate(&translate.Raw{Vendor: Vendor, Status: resp.StatusCode, Header: resp.Header, Body: raw})
	if !ok {
		fallback.Status, fallback.Header = resp.StatusCode, resp.Header
		return fallback
	}
	o.Vendor = Vendor
	return o
}
