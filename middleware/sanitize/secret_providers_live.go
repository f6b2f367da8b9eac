package sanitize

// Live-credential prefixes. Some prefixes say on their own that what
// follows is a working credential of a production account, whatever the
// rest looks like:
//
//   - Stripe live secret and restricted keys "sk_live_", "rk_live_";
//   - GitHub tokens "ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_";
//   - Slack bot, user, app-level and refresh tokens "xoxb-", "xoxp-",
//     "xoxa-", "xoxe.xoxb-", "xoxe.xoxp-";
//   - AWS long-term access key ids "AKIA";
//   - GitLab personal access tokens "glpat-";
//   - Anthropic keys "sk-ant-", OpenAI project, service-account and admin
//     keys "sk-proj-", "sk-svcacct-", "sk-admin-".
//
// A token under one of these prefixes is redacted even when its body
// looks like a stand-in ("sk_live_abcdefghijklmnopqrstuv",
// "AKIAEXAMPLEEXAMPLE", "ghp_xxxxxxxxxxxxxxxxxxxx"): a leaked key whose
// body happens to count up or repeat is still a leaked key, and a
// documentation example loses nothing but its body. The body may also
// break the provider's documented format (a shorter Slack token without
// its team id): the prefix decides. It must hold enough token bytes that
// the whole is at least minTokenLen long, the shortest run the prefilter
// reads, and at least minLiveBody.
//
// Stand-in detection (isDummyBody) stays for every other format: test
// keys ("sk_test_"), and formats whose prefix does not say "live".
// Stripe's publishable keys "pk_live_" are not secret (they are meant to
// be embedded in web pages and mobile apps) and stay, as every "pk_" key
// does; so does "ASIA" when its body breaks the format, because
// upper-case words such as "ASIAPACIFICREGION" start so too.

// minLiveBody is the fewest body bytes a live-prefix token needs.
const minLiveBody = 8

// liveTokens returns the loose formats of the live-credential prefixes.
// They come after the providers' own formats, whose placeholder they
// share, and are tried when those do not match.
func liveTokens() []tokenFamily {
	return []tokenFamily{
		live("stripe-key", alphaAlnum, "sk_live_", "rk_live_"),
		live("github-token", alphaAlnum, "ghp_", "gho_", "ghu_", "ghs_", "ghr_"),
		live("github-token", alphaWord, "github_pat_"),
		live("slack-token", alphaURL, "xoxb-", "xoxp-", "xoxa-", "xoxe.xoxb-", "xoxe.xoxp-"),
		live("aws-access-key-id", alphaUpperNum, "AKIA").maxBody(16),
		live("gitlab-token", alphaURLDot, "glpat-"),
		live("anthropic-key", alphaURL, "sk-ant-"),
		live("openai-key", alphaURL, "sk-proj-", "sk-svcacct-", "sk-admin-"),
	}
}

// maxBody returns the live family f whose body is at most n bytes long:
// a longer run is not the provider's token.
func (f tokenFamily) maxBody(n int) tokenFamily {
	f.parts = []tokenPart{between(f.parts[0].alpha, f.parts[0].min, n)}
	return f
}

// live returns the families of tokens under prefixes whose body is any
// run of a's bytes long enough (see minLiveBody), one family per prefix
// since the shortest body depends on the prefix's length.
func live(family string, a alphabet, prefixes ...string) tokenFamily {
	shortest := len(prefixes[0])
	for _, p := range prefixes {
		shortest = min(shortest, len(p))
	}
	f := fam(family, prefixes, atLeast(a, max(minLiveBody, minTokenLen-shortest)))
	f.live = true
	return f
}
