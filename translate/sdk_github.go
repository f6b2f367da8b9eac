package translate

import (
	"encoding/json"
	"time"

	"github.com/toolerr/toolerr/classify"
)

// githubVendor is the vendor name of GitHub's errors.
const githubVendor = "github"

// githubSDKBody is GitHub's error body as go-github decoded it, encoded
// again for the GitHub translator.
type githubSDKBody struct {
	Message          string `json:"message,omitempty"`
	Errors           any    `json:"errors,omitempty"`
	DocumentationURL string `json:"documentation_url,omitempty"`
}

// readGitHub reads a go-github error (any major) that keeps the response:
// *github.ErrorResponse, *github.RateLimitError (a primary rate limit)
// and *github.AbuseRateLimitError (a secondary one), and any other with
// a Response and a Message. The body go-github decoded is encoded again
// and read with the response's status and headers by the GitHub
// translator; without a response (an error built by hand) only the
// message is known.
func (s *Set) readGitHub(e error, f sdkFields) (classify.Outcome, bool) {
	if !f.has("Response") || !f.has("Message") {
		return classify.Outcome{}, false
	}
	b := githubSDKBody{Message: f.str("Message"), Errors: f.value("Errors"), DocumentationURL: f.str("DocumentationURL")}
	o := classify.Outcome{Vendor: githubVendor, Message: b.Message}
	if resp := f.response("Response"); resp != nil && resp.StatusCode >= 400 {
		o.Status, o.Header = resp.StatusCode, resp.Header
		if raw, err := json.Marshal(b); err == nil {
			if t, ok := s.translateKept(githubVendor, "", &Raw{Status: resp.StatusCode, Header: resp.Header, Body: raw}); ok {
				o = t
				o.Vendor = githubVendor
			}
		}
	}
	switch typeName(e) {
	case "RateLimitError":
		o.Evidence.RateLimited = true
		if rate, ok := f.sub("Rate"); ok {
			if reset, ok := rate.sub("Reset"); ok {
				if t, ok := fieldAs[time.Time](reset, "Time"); ok && !t.IsZero() {
					if d := time.Until(t); d > 0 {
						o.Delay = d
					}
				}
			}
		}
	case "AbuseRateLimitError":
		o.Evidence.RateLimited = true
		o.Delay = githubSecondaryWait
		if d := f.duration("RetryAfter"); d > 0 {
			o.Delay = d
		}
	}
	if block, ok := f.sub("Block"); ok {
		if reason := block.str("Reason"); reason != "" {
			if o.Details == nil {
				o.Details = map[string]any{}
			}
			o.Details["block_reason"] = reason
		}
	}
	return o, true
}
