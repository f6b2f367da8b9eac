package sanitize

import (
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestLivePrefixIgnoresStandIns checks that a token under a prefix that
// says "live credential" is redacted whatever its body looks like: a
// counting sequence, one repeated letter, AWS's EXAMPLE marker, a body
// that breaks the provider's format. Issue 27 §3.4.
func TestLivePrefixIgnoresStandIns(t *testing.T) {
	cases := []struct{ in, family string }{
		{"sk_live_abcdefghijklmnopqrstuv", "stripe-key"},
		{"rk_live_1234567890abcdefghijklmn", "stripe-key"},
		{"sk_live_xxxxxxxxxxxxxxxxxxxxxxxx", "stripe-key"},
		{"ghp_xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx", "github-token"},
		{"gho_abcdefghijklmnop", "github-token"},
		{"github_pat_XXXXXXXXXXXXXXXXXXXXXX_XXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXXX", "github-token"},
		{"xoxb-xxxxxxxxxx", "slack-token"},
		{"xoxb-xxxxxxxxxxx-xxxxxxxxxxxxxxxxxxxxxxxx", "slack-token"},
		{"xoxp-1234567890-abcdefghij", "slack-token"},
		{"xoxb-Slack_BOT_TOKEN", "slack-token"}, // a name in the token's place: the prefix still decides
		{"AKIAEXAMPLEEXAMPLE", "aws-access-key-id"},
		{"AKIAIOSFODNN7EXAMPLE", "aws-access-key-id"},
		{"glpat-XXXXXXXXXXX-XXXXXXXX", "gitlab-token"},
		{"glpat-xxxxxxxxxxxxxxxxxxxx", "gitlab-token"},
		{"sk-ant-api03-abc123xyz-456def789ghij-klmnopqrstuvwx-3456yza789bcde-1234fghijklmnopAA", "anthropic-key"},
		{"sk-ant-api03-xxxxxxxxxxxxxxxxxxxx", "anthropic-key"},
		{"sk-proj-xxxxxxxxxxxx", "openai-key"},
	}
	contexts := []string{
		"%s",
		"Invalid API Key provided: %s",
		`{"error":{"message":"Invalid token %s"}}`,
		"export STRIPE_KEY=%s # do not commit",
		"Authorization: token %s",
	}
	for _, s := range []*Sanitizer{New(), New(withoutPrefilter())} {
		for _, c := range cases {
			for _, ctx := range contexts {
				in := fmt.Sprintf(ctx, c.in)
				out, _ := s.Clean(in)
				assert.NotContains(t, out, c.in, in)
				assert.Contains(t, out, "[REDACTED:", in)
				if ctx == "%s" || ctx == "Invalid API Key provided: %s" {
					assert.Contains(t, out, "[REDACTED:"+c.family+"]", in)
				}
				again, _ := s.Clean(out)
				assert.Equal(t, out, again, "not idempotent: %q", in)
			}
		}
	}
}

// TestLivePrefixKeepsWhatIsNoKey checks what the live prefixes leave:
// publishable keys (public by design), test-mode keys with stand-in
// bodies, a prefix without a body or with a template, upper-case words
// that start like a temporary AWS key id, and an identifier that merely
// contains a prefix.
func TestLivePrefixKeepsWhatIsNoKey(t *testing.T) {
	for _, in := range []string{
		"pk_live_abcdefghijklmnopqrstuv",
		"pk_live_51HqLyjWDarjtT1zdp7dcXa8pXG9vT6X2mHhYr0QpZbE",
		"sk_test_abcdefghijklmnopqrstuv",
		"use your sk_live_ key in production",
		"set STRIPE_KEY to sk_live_${STRIPE_SECRET}",
		"sk_live_<your-key>",
		"ASIAPACIFICREGION",
		"AKIAKN7GDVKCPXJ9MFKPUZRXQ4", // too long for an AWS key id
		"the xoxb- prefix marks bot tokens",
		"xoxb-123",
		"task_ghp_x",
	} {
		for _, s := range []*Sanitizer{New(), New(withoutPrefilter())} {
			out, rep := s.Clean(in)
			assert.Equal(t, in, out)
			assert.Zero(t, rep.Count(KindSecret), in)
		}
	}
}
