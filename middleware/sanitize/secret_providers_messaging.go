package sanitize

// Token formats of messaging, e-mail and chat providers, and their webhook
// URLs, from the providers' documentation:
//
//   - Slack: bot and user tokens "xoxb-", "xoxp-" with a numeric team id
//     first; "xoxe-", "xoxs-", "xoxo-"; legacy "xoxa-", "xoxr-";
//     configuration tokens "xoxe.xoxp-1-", "xoxe.xoxb-1-" and 160 more;
//     app-level tokens "xapp-1-"; incoming webhooks under
//     hooks.slack.com/services/ and workflow triggers under
//     hooks.slack.com/triggers/ and /workflows/ (the path is the secret);
//   - Microsoft Teams incoming webhooks under webhook.office.com/webhookb2/
//     and outlook.office.com/webhook/;
//   - Discord webhooks under discord.com/api/webhooks/ (also
//     discordapp.com);
//   - Twilio account SIDs "AC" and API key SIDs "SK", each with 32 hex
//     digits;
//   - SendGrid "SG." and 22, '.', 43; Brevo (Sendinblue) "xkeysib-" and
//     "xsmtpsib-", 64 hex digits, '-', 16; Mailgun "key-" and "pubkey-"
//     and 32 hex digits;
//   - JSON Web Tokens: three base64url segments, the first one a JSON
//     object, so it starts with "eyJ"; a base64-encoded JWT starts
//     "ZXlK".
func messagingTokens() []tokenFamily {
	return []tokenFamily{
		fam("slack-token", pre("xoxe.xoxp-", "xoxe.xoxb-"), fixed(alphaDigit, 1), lit("-"), atLeast(alphaAlnum, 100)),
		fam("slack-token", pre("xoxb-", "xoxp-"), between(alphaDigit, 8, 14), lit("-"), atLeast(alphaURL, 18)),
		fam("slack-token", pre("xoxe-", "xoxs-", "xoxo-"), between(alphaDigit, 1, 14), lit("-"), atLeast(alphaURL, 10)),
		fam("slack-token", pre("xapp-"), between(alphaDigit, 1, 2), lit("-"), atLeast(alphaURL, 20)),
		fam("slack-token", pre("xoxa-", "xoxr-"), atLeast(alphaURL, 10)).mixedCase(),
		fam("slack-webhook", pre("hooks.slack.com/services/", "hooks.slack.com/triggers/", "hooks.slack.com/workflows/"),
			atLeast(alphaWebhookPath, 20)).bodyOnly(),
		fam("teams-webhook", pre("webhook.office.com/webhookb2/", "outlook.office.com/webhook/"), atLeast(alphaWebhookPath, 40)).bodyOnly(),
		fam("discord-webhook", pre("discord.com/api/webhooks/", "discordapp.com/api/webhooks/"), atLeast(alphaWebhookPath, 40)).bodyOnly(),
		fam("twilio-account-sid", pre("AC"), fixed(alphaLowerHex, 32)),
		fam("twilio-api-key", pre("SK"), fixed(alphaHex, 32)),
		fam("sendgrid-key", pre("SG."), fixed(alphaURL, 22), lit("."), fixed(alphaURL, 43)),
		fam("brevo-key", pre("xkeysib-", "xsmtpsib-"), fixed(alphaLowerHex, 64), lit("-"), fixed(alphaAlnum, 16)),
		fam("mailgun-key", pre("key-", "pubkey-"), fixed(alphaLowerHex, 32)),
		fam("jwt", pre("eyJ"), atLeast(alphaURL, 8), lit("."), atLeast(alphaURL, 2), lit("."), atLeast(alphaURL, 0)),
		fam("jwt", pre("ZXlK"), atLeast(alphaBase64, 60)).mixedCase(),
	}
}
