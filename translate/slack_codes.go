package translate

import "github.com/toolerr/toolerr"

// slackUnknownOutcome are the tokens of a failure inside Slack after which
// the call may have partly run (Slack Web API, common errors: "It's
// possible some aspect of the operation succeeded before the error was
// raised"): they are retried only when the call is idempotent.
var slackUnknownOutcome = map[string]bool{"internal_error": true, "fatal_error": true}

// slackCodes is Slack's table: the errors common to Web API methods, the
// frequent method errors, and the incoming webhooks' tokens. Sources, cited
// per group: Slack Web API reference (docs.slack.dev/reference/methods),
// each method's "Errors" table, and its common errors shared by every
// method; Slack incoming webhooks, "Handling errors".
var slackCodes = map[string]string{
	// Credentials. Slack Web API common errors: not_authed ("No
	// authentication token provided"), invalid_auth, account_inactive
	// (a deleted user or workspace), token_revoked, token_expired.
	"not_authed":       toolerr.CodeUnauthenticated,
	"invalid_auth":     toolerr.CodeUnauthenticated,
	"token_revoked":    toolerr.CodeUnauthenticated,
	"token_expired":    toolerr.CodeUnauthenticated,
	"account_inactive": toolerr.CodeUnauthenticated,
	"invalid_token":    toolerr.CodeUnauthenticated, // incoming webhooks: "Handling errors"

	// Permissions. Slack Web API common errors: missing_scope, no_permission,
	// not_allowed_token_type, access_denied, team_access_not_granted,
	// two_factor_setup_required; chat.postMessage, chat.update, chat.delete:
	// restricted_action*, cant_update_message, cant_delete_message;
	// conversations.*: user_is_bot, user_is_restricted, not_an_admin.
	"missing_scope":                            toolerr.CodePermissionDenied,
	"no_permission":                            toolerr.CodePermissionDenied,
	"not_allowed_token_type":                   toolerr.CodePermissionDenied,
	"access_denied":                            toolerr.CodePermissionDenied,
	"team_access_not_granted":                  toolerr.CodePermissionDenied,
	"two_factor_setup_required":                toolerr.CodePermissionDenied,
	"restricted_action":                        toolerr.CodePermissionDenied,
	"restricted_action_read_only_channel":      toolerr.CodePermissionDenied,
	"restricted_action_thread_only_channel":    toolerr.CodePermissionDenied,
	"restricted_action_non_threadable_channel": toolerr.CodePermissionDenied,
	"cant_update_message":                      toolerr.CodePermissionDenied,
	"cant_delete_message":                      toolerr.CodePermissionDenied,
	"cant_delete_file":                         toolerr.CodePermissionDenied,
	"user_is_bot":                              toolerr.CodePermissionDenied,
	"user_is_restricted":                       toolerr.CodePermissionDenied,
	"user_is_ultra_restricted":                 toolerr.CodePermissionDenied,
	"not_an_admin":                             toolerr.CodePermissionDenied,
	"not_admin":                                toolerr.CodePermissionDenied,
	"not_authorized":                           toolerr.CodePermissionDenied,
	"permission_denied":                        toolerr.CodePermissionDenied,
	"posting_to_general_channel_denied":        toolerr.CodePermissionDenied,
	"team_disabled":                            toolerr.CodePermissionDenied,
	"action_prohibited":                        toolerr.CodePermissionDenied, // incoming webhooks

	// Policy and billing. Slack Web API common errors: ekm_access_denied
	// ("Administrators have suspended the ability to post a message"),
	// accesslimited ("limited on the current network"),
	// enterprise_is_restricted; paid_only on paid-plan methods.
	"ekm_access_denied":        toolerr.CodePolicyBlocked,
	"accesslimited":            toolerr.CodePolicyBlocked,
	"enterprise_is_restricted": toolerr.CodePolicyBlocked,
	"paid_only":                toolerr.CodePaymentRequired,
	"paid_teams_only":          toolerr.CodePaymentRequired,

	// Things that do not exist. chat.postMessage: channel_not_found;
	// users.info: user_not_found; chat.update, reactions.add:
	// message_not_found; files.info: file_not_found, file_deleted;
	// apps.manifest.*, bookmarks.*, functions.*: not_found; admin.users.*,
	// usergroups.users.update: invalid_user (the user id names no user);
	// reactions.remove: no_reaction; pins.remove: not_pinned.
	"channel_not_found":      toolerr.CodeNotFound,
	"user_not_found":         toolerr.CodeNotFound,
	"users_not_found":        toolerr.CodeNotFound,
	"invalid_user":           toolerr.CodeNotFound,
	"not_found":              toolerr.CodeNotFound,
	"message_not_found":      toolerr.CodeNotFound,
	"thread_not_found":       toolerr.CodeNotFound,
	"file_not_found":         toolerr.CodeNotFound,
	"file_comment_not_found": toolerr.CodeNotFound,
	"team_not_found":         toolerr.CodeNotFound,
	"bot_not_found":          toolerr.CodeNotFound,
	"no_reaction":            toolerr.CodeNotFound,
	"not_pinned":             toolerr.CodeNotFound,
	"file_deleted":           toolerr.CodeGone,
	"no_service":             toolerr.CodeNotFound, // incoming webhooks: disabled, removed or invalid

	// State. chat.postMessage: not_in_channel (join first), is_archived;
	// chat.update: edit_window_closed; chat.postEphemeral:
	// user_not_in_channel; reactions.add: already_reacted;
	// conversations.invite: already_in_channel; pins.add: already_pinned;
	// conversations.create: name_taken; conversations.archive:
	// already_archived; conversations.unarchive: not_archived.
	"not_in_channel":      toolerr.CodePreconditionFailed,
	"user_not_in_channel": toolerr.CodePreconditionFailed,
	"is_archived":         toolerr.CodePreconditionFailed,
	"channel_is_archived": toolerr.CodePreconditionFailed, // incoming webhooks
	"edit_window_closed":  toolerr.CodePreconditionFailed,
	"already_reacted":     toolerr.CodeConflict,
	"already_in_channel":  toolerr.CodeConflict,
	"already_pinned":      toolerr.CodeConflict,
	"already_starred":     toolerr.CodeConflict,
	"already_archived":    toolerr.CodeConflict,
	"not_archived":        toolerr.CodeConflict,
	"name_taken":          toolerr.CodeConflict,

	// The request itself. Slack Web API common errors: invalid_arguments,
	// invalid_arg_name, invalid_array_arg, invalid_charset,
	// invalid_form_data, invalid_post_type, missing_post_type, invalid_json,
	// json_not_object, missing_argument ("A required argument is
	// missing"); apps.manifest.*: invalid_manifest; chat.postMessage:
	// invalid_blocks, invalid_attachments, no_text, too_many_attachments,
	// invalid_metadata_*; conversations.*: invalid_cursor, invalid_limit,
	// invalid_name*, cant_invite_self; chat.scheduleMessage: time_in_past,
	// time_too_far; usergroups.users.update, conversations.invite:
	// too_many_users; reactions.add: too_many_emoji, too_many_reactions.
	"invalid_arguments":        toolerr.CodeValidationFailed,
	"invalid_arg_name":         toolerr.CodeValidationFailed,
	"invalid_array_arg":        toolerr.CodeValidationFailed,
	"invalid_charset":          toolerr.CodeValidationFailed,
	"missing_charset":          toolerr.CodeValidationFailed,
	"superfluous_charset":      toolerr.CodeValidationFailed,
	"invalid_form_data":        toolerr.CodeValidationFailed,
	"invalid_post_type":        toolerr.CodeValidationFailed,
	"missing_post_type":        toolerr.CodeValidationFailed,
	"missing_argument":         toolerr.CodeValidationFailed,
	"invalid_json":             toolerr.CodeValidationFailed,
	"json_not_object":          toolerr.CodeValidationFailed,
	"invalid_manifest":         toolerr.CodeValidationFailed,
	"invalid_blocks":           toolerr.CodeValidationFailed,
	"invalid_blocks_format":    toolerr.CodeValidationFailed,
	"invalid_attachments":      toolerr.CodeValidationFailed,
	"invalid_metadata_format":  toolerr.CodeValidationFailed,
	"invalid_metadata_schema":  toolerr.CodeValidationFailed,
	"invalid_cursor":           toolerr.CodeValidationFailed,
	"invalid_limit":            toolerr.CodeValidationFailed,
	"invalid_ts_latest":        toolerr.CodeValidationFailed,
	"invalid_ts_oldest":        toolerr.CodeValidationFailed,
	"invalid_timestamp":        toolerr.CodeValidationFailed,
	"bad_timestamp":            toolerr.CodeValidationFailed,
	"time_in_past":             toolerr.CodeValidationFailed,
	"time_too_far":             toolerr.CodeValidationFailed,
	"invalid_name":             toolerr.CodeValidationFailed,
	"invalid_name_required":    toolerr.CodeValidationFailed,
	"invalid_name_punctuation": toolerr.CodeValidationFailed,
	"invalid_name_maxlength":   toolerr.CodeValidationFailed,
	"invalid_name_specials":    toolerr.CodeValidationFailed,
	"cant_invite_self":         toolerr.CodeValidationFailed,
	"cant_kick_self":           toolerr.CodeValidationFailed,
	"no_item_specified":        toolerr.CodeValidationFailed,
	"no_text":                  toolerr.CodeValidationFailed,
	"invalid_payload":          toolerr.CodeValidationFailed, // incoming webhooks
	"too_many_attachments":     toolerr.CodeValidationFailed,
	"too_many_users":           toolerr.CodeValidationFailed,
	"too_many_emoji":           toolerr.CodeValidationFailed,
	"too_many_reactions":       toolerr.CodeValidationFailed,
	"too_many_frames":          toolerr.CodeValidationFailed,
	"msg_too_long":             toolerr.CodePayloadTooLarge,
	"request_too_large":        toolerr.CodePayloadTooLarge,
	"metadata_too_large":       toolerr.CodePayloadTooLarge,
	"too_long":                 toolerr.CodePayloadTooLarge,

	// Methods. Slack Web API common errors: deprecated_endpoint,
	// method_deprecated; conversations.*: method_not_supported_for_channel_type.
	"unknown_method":                        toolerr.CodeNotImplemented,
	"method_deprecated":                     toolerr.CodeNotImplemented,
	"deprecated_endpoint":                   toolerr.CodeNotImplemented,
	"method_not_supported_for_channel_type": toolerr.CodeNotImplemented,
	"channel_type_not_supported":            toolerr.CodeNotImplemented,

	// Load and Slack's own failures. Slack Web API, "Rate limits":
	// ratelimited with HTTP 429 and Retry-After. Common errors:
	// request_timeout ("the POST data was either missing or truncated"),
	// service_unavailable, team_added_to_org and org_login_required (the
	// workspace is migrating to an Enterprise org and is unavailable until
	// it is done), internal_error ("likely due to a transient issue") and
	// fatal_error ("a catastrophic error"); the last two may have partly
	// run, see slackUnknownOutcome.
	"ratelimited":         toolerr.CodeRateLimited,
	"rate_limited":        toolerr.CodeRateLimited,
	"request_timeout":     toolerr.CodeUpstreamTimeout,
	"service_unavailable": toolerr.CodeUpstreamUnavailable,
	"team_added_to_org":   toolerr.CodeUpstreamUnavailable,
	"org_login_required":  toolerr.CodeUpstreamUnavailable,
	"internal_error":      toolerr.CodeUpstreamUnavailable,
	"fatal_error":         toolerr.CodeUpstreamUnavailable,
}
