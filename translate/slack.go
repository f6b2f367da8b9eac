package translate

import (
	"bytes"
	"strings"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// slackTranslator reads Slack errors. The Web API answers most errors with
// HTTP 200 and an envelope:
//
//	{"ok": false, "error": "invalid_arguments",
//	 "response_metadata": {"messages": ["[ERROR] missing required field: text [json-pointer:/blocks/0]"]}}
//
// and rate limits with HTTP 429, Retry-After and "error": "ratelimited".
// Incoming webhooks (hooks.slack.com) answer with a 4xx status and the
// error token as a plain-text body ("invalid_payload"). The vendor code is
// the error token; the field is the json-pointer of the first message. An
// {"ok": true} body is a success.
type slackTranslator struct{}

// Vendor returns "slack".
func (slackTranslator) Vendor() string { return "slack" }

// Hosts returns Slack's API hosts.
func (slackTranslator) Hosts() []string {
	return []string{"slack.com", "api.slack.com", "hooks.slack.com"}
}

// Recognizes claims a response with Slack's request headers, or Slack's
// error envelope: "ok": false with a snake_case "error" token (the error
// being a string tells it from an error envelope with an "error" object).
func (slackTranslator) Recognizes(r *Raw) bool {
	if r.Header.Get("X-Slack-Req-Id") != "" || r.Header.Get("X-Slack-Backend") != "" {
		return true
	}
	if !bytes.Contains(r.Body, []byte(`"ok"`)) {
		return false
	}
	m, ok := devObject(r.Body)
	if !ok {
		return false
	}
	okv, present := devBool(m, "ok")
	return present && !okv && devToken(devString(m, "error"))
}

// Translate reads a Slack error: the ok:false envelope at any status, or a
// webhook's plain-text token at a 4xx or 5xx.
func (slackTranslator) Translate(r *Raw) (classify.Outcome, bool) {
	m, isObject := devObject(r.Body)
	if !isObject {
		return slackPlain(r)
	}
	okv, present := devBool(m, "ok")
	if !present || okv {
		return classify.Outcome{}, false
	}
	o := classify.Outcome{
		VendorCode: devString(m, "error"),
		RequestID:  r.Header.Get("X-Slack-Req-Id"),
	}
	var messages []string
	if meta, ok := devMember(m, "response_metadata"); ok {
		for _, item := range devArray(meta, "messages") {
			if s := devItemString(item); s != "" {
				messages = append(messages, s)
				break
			}
		}
	}
	if len(messages) == 0 {
		for _, item := range devArray(m, "errors") {
			if s := devItemString(item); s != "" {
				messages = append(messages, s)
				break
			}
		}
	}
	if len(messages) > 0 {
		o.Message, o.Field = slackMessage(messages[0])
	} else {
		o.Message = devString(m, "detail")
	}
	devSetDetail(&o, "needed_scope", devString(m, "needed"))
	devSetDetail(&o, "provided_scopes", devString(m, "provided"))
	devSetDetail(&o, "warning", devString(m, "warning"))
	return o, true
}

// slackPlain reads an incoming webhook's error: a 4xx or 5xx whose whole
// body is an error token such as "channel_not_found".
func slackPlain(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 || len(r.Body) > 128 {
		return classify.Outcome{}, false
	}
	token := strings.TrimSpace(string(r.Body))
	if !devToken(token) {
		return classify.Outcome{}, false
	}
	return classify.Outcome{VendorCode: token, RequestID: r.Header.Get("X-Slack-Req-Id")}, true
}

// slackMessage splits one response_metadata message such as
// "[ERROR] must be more than 0 characters [json-pointer:/blocks/0/text]"
// into its text and its json-pointer.
func slackMessage(s string) (text, pointer string) {
	for _, prefix := range [...]string{"[ERROR]", "[WARN]"} {
		if rest, ok := strings.CutPrefix(s, prefix); ok {
			s = strings.TrimSpace(rest)
			break
		}
	}
	const marker = "[json-pointer:"
	if i := strings.LastIndex(s, marker); i >= 0 {
		if j := strings.IndexByte(s[i:], ']'); j > len(marker) {
			pointer = strings.TrimSpace(s[i+len(marker) : i+j])
			s = strings.TrimSpace(s[:i] + s[i+j+1:])
		}
	}
	return s, pointer
}

// Codes maps Slack's error tokens to toolerr codes.
func (slackTranslator) Codes() map[string]string { return slackCodes }

// slackCodes is Slack's table: the Web API's common errors, frequent
// method errors, and the incoming webhooks' tokens.
var slackCodes = map[string]string{
	// Credentials.
	"not_authed":       toolerr.CodeUnauthenticated,
	"invalid_auth":     toolerr.CodeUnauthenticated,
	"token_revoked":    toolerr.CodeUnauthenticated,
	"token_expired":    toolerr.CodeUnauthenticated,
	"account_inactive": toolerr.CodeUnauthenticated,
	"invalid_token":    toolerr.CodeUnauthenticated, // webhooks

	// Permissions and policy.
	"missing_scope":                     toolerr.CodePermissionDenied,
	"no_permission":                     toolerr.CodePermissionDenied,
	"not_allowed_token_type":            toolerr.CodePermissionDenied,
	"access_denied":                     toolerr.CodePermissionDenied,
	"restricted_action":                 toolerr.CodePermissionDenied,
	"cant_update_message":               toolerr.CodePermissionDenied,
	"cant_delete_message":               toolerr.CodePermissionDenied,
	"team_access_not_granted":           toolerr.CodePermissionDenied,
	"two_factor_setup_required":         toolerr.CodePermissionDenied,
	"action_prohibited":                 toolerr.CodePermissionDenied, // webhooks
	"posting_to_general_channel_denied": toolerr.CodePermissionDenied,
	"team_disabled":                     toolerr.CodePermissionDenied,
	"ekm_access_denied":                 toolerr.CodePolicyBlocked,
	"accesslimited":                     toolerr.CodePolicyBlocked,
	"enterprise_is_restricted":          toolerr.CodePolicyBlocked,
	"paid_only":                         toolerr.CodePaymentRequired,
	"paid_teams_only":                   toolerr.CodePaymentRequired,

	// Things that do not exist.
	"channel_not_found": toolerr.CodeNotFound,
	"user_not_found":    toolerr.CodeNotFound,
	"users_not_found":   toolerr.CodeNotFound,
	"message_not_found": toolerr.CodeNotFound,
	"thread_not_found":  toolerr.CodeNotFound,
	"file_not_found":    toolerr.CodeNotFound,
	"no_item_specified": toolerr.CodeValidationFailed,
	"no_service":        toolerr.CodeNotFound, // webhooks: disabled, removed or invalid

	// State.
	"not_in_channel":      toolerr.CodePreconditionFailed, // join the channel first
	"is_archived":         toolerr.CodePreconditionFailed,
	"channel_is_archived": toolerr.CodePreconditionFailed, // webhooks
	"edit_window_closed":  toolerr.CodePreconditionFailed,
	"already_reacted":     toolerr.CodeConflict,
	"already_in_channel":  toolerr.CodeConflict,
	"already_pinned":      toolerr.CodeConflict,
	"name_taken":          toolerr.CodeConflict,

	// The request itself.
	"invalid_arguments":     toolerr.CodeValidationFailed,
	"invalid_arg_name":      toolerr.CodeValidationFailed,
	"invalid_array_arg":     toolerr.CodeValidationFailed,
	"invalid_charset":       toolerr.CodeValidationFailed,
	"invalid_form_data":     toolerr.CodeValidationFailed,
	"invalid_post_type":     toolerr.CodeValidationFailed,
	"missing_post_type":     toolerr.CodeValidationFailed,
	"invalid_json":          toolerr.CodeValidationFailed,
	"json_not_object":       toolerr.CodeValidationFailed,
	"invalid_blocks":        toolerr.CodeValidationFailed,
	"invalid_blocks_format": toolerr.CodeValidationFailed,
	"invalid_attachments":   toolerr.CodeValidationFailed,
	"invalid_cursor":        toolerr.CodeValidationFailed,
	"invalid_ts_latest":     toolerr.CodeValidationFailed,
	"invalid_ts_oldest":     toolerr.CodeValidationFailed,
	"invalid_payload":       toolerr.CodeValidationFailed, // webhooks
	"no_text":               toolerr.CodeValidationFailed,
	"too_many_attachments":  toolerr.CodeValidationFailed,
	"msg_too_long":          toolerr.CodePayloadTooLarge,
	"request_too_large":     toolerr.CodePayloadTooLarge,
	"unknown_method":        toolerr.CodeNotImplemented,
	"method_deprecated":     toolerr.CodeNotImplemented,
	"deprecated_endpoint":   toolerr.CodeNotImplemented,

	// Load and Slack's own failures. internal_error and fatal_error may
	// have partly run ("some aspect of the operation succeeded"), so they
	// are not retried blindly.
	"ratelimited":         toolerr.CodeRateLimited,
	"rate_limited":        toolerr.CodeRateLimited,
	"request_timeout":     toolerr.CodeUpstreamTimeout,
	"service_unavailable": toolerr.CodeUpstreamUnavailable,
	"team_added_to_org":   toolerr.CodeUpstreamUnavailable,
	"internal_error":      toolerr.CodeUpstreamUnclassified,
	"fatal_error":         toolerr.CodeUpstreamUnclassified,
}
