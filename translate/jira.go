package translate

import (
	"bytes"
	"net/http"
	"strings"
	"unicode/utf8"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// jiraRecognizes claims a response with Jira's X-AREQUESTID header, one with
// Atlassian's ATL-TraceId header and an errorMessages member, or a body
// with Jira's unmistakable pair of errorMessages (array) and errors
// (object).
func jiraRecognizes(r *Raw) bool {
	if canonheader.Value(r.Header, "X-Arequestid") != "" {
		return true
	}
	if !bytes.Contains(r.Body, []byte(`"errorMessages"`)) {
		return false
	}
	b := r.object()
	if b == nil {
		return false
	}
	msgs := bytes.TrimSpace(b.get("errorMessages"))
	if len(msgs) == 0 || msgs[0] != '[' {
		return false
	}
	if canonheader.Value(r.Header, "Atl-Traceid") != "" {
		return true
	}
	errs := bytes.TrimSpace(b.get("errors"))
	return len(errs) > 0 && errs[0] == '{'
}

// jiraReasonHeaders name the RateLimit-Reason header, in its documented
// form first and then the forms seen while Atlassian rolled it out.
var jiraReasonHeaders = [...]string{"Ratelimit-Reason", "X-Ratelimit-Reason", "X-Beta-Ratelimit-Reason"}

// maxTextMessage bounds a plain-text body used as a message.
const maxTextMessage = 512

// jiraTranslate reads Atlassian Jira's errors:
//
//	{"errorMessages": ["Issue does not exist or you do not have permission to see it."],
//	 "errors": {"summary": "You must specify a summary of the issue."}}
//
// Jira writes no error codes. The only stable identifier it sends is the
// RateLimit-Reason header of a 429, which tells a burst limit (passes in
// seconds) from the hourly points quota (does not): that header is the
// vendor code of a 429, and other responses have none.
//
// It reads a Jira error from 400 on; below 400 nothing is an
// error. The message is the first of errorMessages, else the first field
// error; the field is the first key of errors, in document order. A plain
// text body (Jira's 401 "Client must be authenticated…") is the message.
func jiraTranslate(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 {
		return classify.Outcome{}, false
	}
	o := classify.Outcome{RequestID: canonheader.Value(r.Header, "X-Arequestid")}
	if o.RequestID == "" {
		o.RequestID = canonheader.Value(r.Header, "Atl-Traceid")
	}
	if b := r.object(); b != nil {
		o.Message = stringOrFirst(b.get("errorMessages"))
		if key, value, ok := firstMember(b.get("errors")); ok {
			o.Field = key
			if o.Message == "" {
				o.Message = stringOrFirst(value)
			}
		}
		if o.Message == "" {
			o.Message = b.str("errorMessage", "message")
		}
	} else if r.ContentType() == "text/plain" {
		o.Message = jiraText(r.Body)
	}
	if r.Status == http.StatusTooManyRequests {
		for _, name := range jiraReasonHeaders {
			if v := strings.TrimSpace(r.Header.Get(name)); v != "" {
				o.VendorCode = v
				break
			}
		}
	}
	return o, true
}

// jiraText returns a short plain-text body as a message: valid UTF-8,
// trimmed, at most maxTextMessage bytes; else "".
func jiraText(body []byte) string {
	body = bytes.TrimSpace(body)
	if len(body) == 0 || len(body) > maxTextMessage || !utf8.Valid(body) {
		return ""
	}
	return string(body)
}

// jiraCodes maps the RateLimit-Reason values Atlassian documents.
var jiraCodes = map[string]string{
	"jira-burst-based":        toolerr.CodeRateLimited,
	"jira-per-issue-on-write": toolerr.CodeRateLimited,
	"jira-quota-tenant-based": toolerr.CodeQuotaExhausted, // hourly points quota
	"jira-quota-global-based": toolerr.CodeQuotaExhausted,
}
