package translate

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// TestSlackRobust checks that garbage never panics and that Slack's table names only built-in codes.
func TestSlackRobust(t *testing.T) {
	devRobust(t, builtinNamed("slack"))
	devCodesRegister(t, builtinNamed("slack"))
}

// TestSlackEnvelope reads the ok:false envelope and its messages, and nothing else.
func TestSlackEnvelope(t *testing.T) {
	tr := builtinNamed("slack")
	cases := []struct {
		name    string
		body    string
		ok      bool
		code    string
		field   string
		message string
	}{
		{"ok true", `{"ok":true,"channel":"C1"}`, false, "", "", ""},
		{"ok missing", `{"error":"channel_not_found"}`, false, "", "", ""},
		{"ok not a bool", `{"ok":"false","error":"channel_not_found"}`, false, "", "", ""},
		{"plain error", `{"ok":false,"error":"channel_not_found"}`, true, "channel_not_found", "", ""},
		{"error missing", `{"ok":false}`, true, "", "", ""},
		{"error of a wrong type", `{"ok":false,"error":{"code":"x"}}`, true, "", "", ""},
		{"pointer", `{"ok":false,"error":"invalid_blocks","response_metadata":{"messages":["[ERROR] must be more than 0 characters [json-pointer:/blocks/0/text]"]}}`,
			true, "invalid_blocks", "/blocks/0/text", "must be more than 0 characters"},
		{"no pointer", `{"ok":false,"error":"invalid_arguments","response_metadata":{"messages":["[ERROR] missing required field: channel"]}}`,
			true, "invalid_arguments", "", "missing required field: channel"},
		{"unclosed pointer", `{"ok":false,"error":"invalid_blocks","response_metadata":{"messages":["[ERROR] bad [json-pointer:/blocks"]}}`,
			true, "invalid_blocks", "", "bad [json-pointer:/blocks"},
		{"errors array only", `{"ok":false,"error":"invalid_attachments","errors":["missing required field: alt_text [json-pointer:/attachments/0/blocks/0]"]}`,
			true, "invalid_attachments", "/attachments/0/blocks/0", "missing required field: alt_text"},
		{"errors array of objects", `{"ok":false,"error":"invalid_manifest","errors":[{"message":"Interactivity requires a Request URL","pointer":"/settings/interactivity"}]}`,
			true, "invalid_manifest", "/settings/interactivity", "Interactivity requires a Request URL"},
		{"errors objects without a message skipped", `{"ok":false,"error":"invalid_manifest","errors":[{"pointer":"/x"},{"message":"bad","pointer":7}]}`,
			true, "invalid_manifest", "", "bad"},
		{"messages of wrong types", `{"ok":false,"error":"invalid_arguments","response_metadata":{"messages":[1,null,{}]}}`,
			true, "invalid_arguments", "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, ok := tr.Translate(devRaw(200, c.body, "X-Slack-Req-Id", "abc"))
			require.Equal(t, c.ok, ok)
			if !ok {
				return
			}
			assert.Equal(t, c.code, o.VendorCode)
			assert.Equal(t, c.field, o.Field)
			assert.Equal(t, c.message, o.Message)
			assert.Equal(t, "abc", o.RequestID)
		})
	}
}

// TestSlackWebhookText reads incoming webhooks' plain-text tokens on errors only.
func TestSlackWebhookText(t *testing.T) {
	tr := builtinNamed("slack")
	o, ok := tr.Translate(devRaw(404, "channel_not_found\n"))
	require.True(t, ok)
	assert.Equal(t, "channel_not_found", o.VendorCode)
	for _, c := range []struct {
		status int
		body   string
	}{
		{200, "ok"},
		{200, "invalid_payload"},
		{400, "Invalid Payload!"},
		{400, strings.Repeat("a", 200)},
		{500, "<html>oops</html>"},
	} {
		_, ok := tr.Translate(devRaw(c.status, c.body))
		assert.False(t, ok, "%d %q", c.status, c.body)
	}
}

// TestSlackRecognizes claims Slack's headers and envelope, not other ok/error envelopes.
func TestSlackRecognizes(t *testing.T) {
	tr := builtinNamed("slack")
	assert.True(t, tr.Recognizes(devRaw(200, `{"ok":true}`, "X-Slack-Req-Id", "abc")))
	assert.True(t, tr.Recognizes(devRaw(200, `{"ok":false,"error":"not_in_channel"}`)))
	assert.False(t, tr.Recognizes(devRaw(200, `{"ok":true}`)))
	assert.False(t, tr.Recognizes(devRaw(500, `{"ok":false,"error":{"code":"INTERNAL_ERROR"}}`)), "an error envelope with an object")
	assert.False(t, tr.Recognizes(devRaw(400, `{"ok":false,"error":"Something Went Wrong"}`)), "not a Slack token")
}

// TestSlackMessage splits response_metadata messages into text and json-pointer.
func TestSlackMessage(t *testing.T) {
	for _, c := range []struct{ in, text, pointer string }{
		{"[ERROR] x [json-pointer:/a/0]", "x", "/a/0"},
		{"[WARN] superfluous charset", "superfluous charset", ""},
		{"[json-pointer:]", "[json-pointer:]", ""},
		{"[ERROR] [json-pointer:/a] trailing", "trailing", "/a"},
		{"", "", ""},
	} {
		text, pointer := slackMessage(c.in)
		assert.Equal(t, c.text, text, c.in)
		assert.Equal(t, c.pointer, pointer, c.in)
	}
}

// TestSlackCommonCodes maps the Web API's common and frequent method errors to their classes.
func TestSlackCommonCodes(t *testing.T) {
	want := map[string][]string{
		toolerr.CodeUnauthenticated: {"not_authed", "invalid_auth", "account_inactive", "token_revoked", "token_expired"},
		toolerr.CodePermissionDenied: {"no_permission", "missing_scope", "restricted_action", "cant_update_message",
			"not_allowed_token_type", "user_is_bot", "restricted_action_thread_only_channel"},
		toolerr.CodePolicyBlocked:       {"ekm_access_denied", "accesslimited"},
		toolerr.CodeRateLimited:         {"ratelimited"},
		toolerr.CodeUpstreamTimeout:     {"request_timeout"},
		toolerr.CodeUpstreamUnavailable: {"fatal_error", "internal_error", "service_unavailable", "org_login_required", "team_added_to_org"},
		toolerr.CodeValidationFailed: {"invalid_arguments", "invalid_arg_name", "invalid_array_arg", "invalid_charset",
			"invalid_form_data", "invalid_post_type", "missing_post_type", "missing_argument", "invalid_manifest",
			"too_many_attachments", "too_many_users", "too_many_emoji", "too_many_reactions", "invalid_json"},
		toolerr.CodeNotFound: {"channel_not_found", "user_not_found", "not_found", "message_not_found",
			"file_not_found", "invalid_user", "thread_not_found"},
		toolerr.CodePreconditionFailed: {"is_archived", "not_in_channel", "user_not_in_channel"},
		toolerr.CodeConflict:           {"already_reacted", "already_in_channel", "name_taken", "already_archived"},
		toolerr.CodeGone:               {"file_deleted"},
	}
	for code, tokens := range want {
		for _, token := range tokens {
			assert.Equal(t, code, slackCodes[token], token)
		}
	}
}

// TestSlackUnknownOutcome retries internal_error and fatal_error only for idempotent calls.
func TestSlackUnknownOutcome(t *testing.T) {
	tr := builtinNamed("slack")
	for _, c := range []struct {
		token      string
		method     string
		idempotent bool
		want       classify.RetryAdvice
	}{
		{"internal_error", http.MethodPost, false, classify.AdviceDoNotRetry},
		{"fatal_error", http.MethodPost, false, classify.AdviceDoNotRetry},
		{"internal_error", http.MethodPost, true, classify.AdviceNone},
		{"internal_error", http.MethodGet, false, classify.AdviceNone},
		{"service_unavailable", http.MethodPost, false, classify.AdviceNone},
	} {
		r := devRaw(200, `{"ok":false,"error":"`+c.token+`"}`)
		r.Method, r.Idempotent = c.method, c.idempotent
		o, ok := tr.Translate(r)
		require.True(t, ok)
		assert.Equal(t, c.want, o.Evidence.Retry, "%s %s %v", c.token, c.method, c.idempotent)
	}
}

// TestSlackNotFoundSuffix classifies a <thing>_not_found token the table
// does not list as NOT_FOUND, reported as Slack sent it; a listed token
// keeps its own row.
func TestSlackNotFoundSuffix(t *testing.T) {
	for token, want := range map[string]string{
		"function_execution_not_found": toolerr.CodeNotFound,
		"workflow_not_found":           toolerr.CodeNotFound,
		"not_found_yet":                toolerr.CodeUpstreamUnclassified,
		"invalid_user":                 slackCodes["invalid_user"],
	} {
		e := Default().Classify(context.Background(), &Raw{Method: "POST", Host: "slack.com", Status: 200,
			Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(`{"ok":false,"error":"` + token + `"}`)})
		require.NotNil(t, e, token)
		assert.Equal(t, want, e.Code, token)
		assert.Equal(t, token, e.Upstream.Code, token)
	}
}
