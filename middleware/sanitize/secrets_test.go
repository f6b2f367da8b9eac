package sanitize

import (
	"net/url"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// withoutPrefilter makes every rule run at every position of the text.
func withoutPrefilter() Option { return func(c *config) { c.prefilter = false } }

// bothModes returns a sanitizer with the prefilter and one without, both
// with opts.
func bothModes(opts ...Option) (on, off *Sanitizer) {
	return New(opts...), New(append(opts[:len(opts):len(opts)], withoutPrefilter())...)
}

// testOpts are the options of the family tests.
var testOpts = []Option{WithHostname("fuzz-host-1"), WithInternalSuffixes(".corp.example.net"), WithMaxOutput(1 << 20)}

// TestSecretFamilies plants every family in some text, with the prefilter
// and without, and checks that the secret is gone, its placeholder is
// there, the text around it survives and Clean is a fixed point.
func TestSecretFamilies(t *testing.T) {
	for _, p := range planters {
		for seed := uint64(1); seed <= 40; seed++ {
			pl := p.make(newGen(seed))
			opts := testOpts
			if p.name == "configured-secret" {
				opts = append(opts[:len(opts):len(opts)], WithSecrets(pl.body))
			}
			on, off := bothModes(opts...)
			in := "before the call: " + pl.text + "\nafter the call."
			out, rep := on.Clean(in)
			outOff, repOff := off.Clean(in)
			require.Equal(t, out, outOff, "%s: prefilter on and off differ", p.name)
			require.Equal(t, rep, repOff, p.name)
			assert.NotContains(t, out, pl.body, "%s: %q", p.name, in)
			assert.Contains(t, out, pl.mark, "%s: %q", p.name, in)
			assert.True(t, strings.HasPrefix(out, "before the call: "), "%s: %q", p.name, out)
			if !pl.toEnd {
				assert.True(t, strings.HasSuffix(out, " after the call."), "%s: %q", p.name, out)
			}
			assert.True(t, rep.Redacted(), p.name)
			again, _ := on.Clean(out)
			assert.Equal(t, out, again, "%s: not idempotent", p.name)
		}
	}
}

// TestSecretExamples checks exact outputs of typical inputs.
func TestSecretExamples(t *testing.T) {
	cases := []struct{ in, want string }{
		{"postgres://app:s3cr3tPw@db.example.com:5432/main", "postgres://app:[REDACTED:dsn-password]@db.example.com:5432/main"},
		{"redis://:hunter22@cache.example.com:6379", "redis://:[REDACTED:dsn-password]@cache.example.com:6379"},
		{"https://alice:pa55word@api.example.com/v1", "https://[REDACTED:url-credentials]@api.example.com/v1"},
		{"https://api.example.com/v1?user=bob", "https://api.example.com/v1?user=bob"},
		{"host=db password=secret dbname=x", "host=db password=[REDACTED:password] dbname=x"},
		{"jdbc:mysql://db.example.com/x?user=app&password=Pw123456&ssl=true", "jdbc:mysql://db.example.com/x?user=app&password=[REDACTED:password]&ssl=true"},
		{"Authorization: Basic YWxhZGRpbjpvcGVuc2VzYW1l", "Authorization: Basic [REDACTED:authorization]"},
		{"authorization: AWS4-HMAC-SHA256 Credential=x/y, Signature=abc123", "authorization: AWS4-HMAC-SHA256 [REDACTED:authorization]"},
		{`{"Authorization": "Bearer abc.def.ghi", "ok": true}`, `{"Authorization": "Bearer [REDACTED:authorization]", "ok": true}`},
		{`{\"password\":\"pw-in-escaped-json\"}`, `{\"password\":\"[REDACTED:password]\"}`},
		{"Cookie: session=abc123; theme=dark", "Cookie: [REDACTED:cookie]"},
		{"X-Api-Key: 0123abcd4567", "X-Api-Key: [REDACTED:api-key]"},
		{"grant_type=password&password=hunter2&client_id=app", "grant_type=password&password=[REDACTED:password]&client_id=app"},
		{"DATABASE_PASSWORD=correct-horse", "DATABASE_PASSWORD=[REDACTED:password]"},
		{"password => 'x9y8z7'", "password => '[REDACTED:password]'"},
		// A numeric credential as a JSON number: the quoted key says it is data.
		{`{"password": 84512093, "pin_ok": true}`, `{"password": "[REDACTED:password]", "pin_ok": true}`},
		{`{\"api_key\":4451209311}`, `{\"api_key\":[REDACTED:api-key]}`}, // inside a JSON string: no quotes added
		{"AccountName=a;AccountKey=YWJjZGVm+Z2hp/amts==;EndpointSuffix=core.windows.net", "AccountName=a;AccountKey=[REDACTED:azure-storage-key];EndpointSuffix=core.windows.net"},
		{"-----BEGIN PRIVATE KEY-----\nMIIEvQ\n-----END PRIVATE KEY-----\ndone", "[REDACTED:private-key] done"},
		{"key: -----BEGIN EC PRIVATE KEY-----\nMHcCAQEE", "key: [REDACTED:private-key]"},
		{"MIIEvQIBADANBgkqhkiG9w0BAQEFAASC\nBKcwggSjAgEAAoIBAQC7\n-----END PRIVATE KEY-----\ndone", "[REDACTED:private-key] done"},
		{"the word key -----END PRIVATE KEY-----", "the word key -----END PRIVATE KEY-----"},
	}
	for _, c := range cases {
		for _, s := range []*Sanitizer{New(), New(withoutPrefilter())} {
			got, _ := s.Clean(c.in)
			assert.Equal(t, c.want, got, c.in)
		}
	}
}

// TestSecretNegatives checks that ordinary text survives unchanged.
func TestSecretNegatives(t *testing.T) {
	for _, in := range []string{
		"password must be 12 characters",
		"password: must be at least 12 characters long",
		`{"password": "must be at least 12 characters long"}`,
		"token expired", "token: expired", "the secret is out", "secret: none",
		"Authorization: required", "Cookie: not set",
		"request 123e4567-e89b-12d3-a456-426614174000 failed",
		"commit 9fceb02d0ae598e95dc970b74767f19372d61af8 broke the build",
		"color #ff8800 and #FFF", "version 1.2.3 (build 2024-01-05)",
		"max_tokens: 4096", "completion_tokens=12", "token_type=bearer",
		"password: 8 characters or more", `{"password": 8, "session": 120}`, `{"max_tokens": 4096}`,
		"see https://docs.example.com/errors#rate-limit for details",
		"email bob@example.com for access", "a == b, c <= d, x => y",
		"The quick brown fox jumps over the lazy dog.",
		"internationalization and localization are long words",
		"sk-learn-style-estimators-are-compatible", "risk-free-and-task-oriented-planning",
		"-----BEGIN CERTIFICATE-----\nMIIB\n-----END CERTIFICATE-----",
		"Error: something: went wrong",
	} {
		for _, s := range []*Sanitizer{New(), New(withoutPrefilter())} {
			out, rep := s.Clean(in)
			assert.Equal(t, collapseSpace(in), out, in)
			assert.Zero(t, rep.Count(KindSecret), in)
		}
	}
}

// TestSecretReportCounts checks that the report counts each secret once.
func TestSecretReportCounts(t *testing.T) {
	// Random-looking tokens: counting sequences such as "abcdefghij" are
	// stand-ins and stay (TestTokenStandIns).
	in := "a ghp_R8nX2kQ7vT4mW9pL3sZ6yB1cD5fG0hJ8aE2u b password=x1 c https://u:p@h.example.com d AKIAQ4RZ7XW2M5N3K6PT"
	_, rep := New().Clean(in)
	assert.Equal(t, 4, rep.Count(KindSecret))
	assert.Equal(t, "secret=4", rep.String())
}

// TestWithSecrets checks configured values, also URL-encoded and in
// several places, and that short values are ignored.
func TestWithSecrets(t *testing.T) {
	v := "my vault/value+1"
	s := New(WithSecrets(v, "short"))
	in := "got " + v + " then " + url.QueryEscape(v) + " and " + url.PathEscape(v) + " and short"
	out, rep := s.Clean(in)
	assert.Equal(t, "got [REDACTED:configured-secret] then [REDACTED:configured-secret] and [REDACTED:configured-secret] and short", out)
	assert.Equal(t, 3, rep.Count(KindSecret))
}

// TestSecretsInJSONAndURLs checks secrets inside JSON strings and query
// strings.
func TestSecretsInJSONAndURLs(t *testing.T) {
	gh := "ghp_" + strings.Repeat("aB3", 12)
	in := `{"error":{"message":"bad credentials for ` + gh + `","url":"https://api.example.com/x?api_key=Zx9Yw8Vu7T&page=2"}}`
	out, rep := New().Clean(in)
	assert.Equal(t, `{"error":{"message":"bad credentials for [REDACTED:github-token]","url":"https://api.example.com/x?api_key=[REDACTED:api-key]&page=2"}}`, out)
	assert.Equal(t, 2, rep.Count(KindSecret))
}

// TestSecretStraddlesCap checks that a secret cut by the output cap is
// redacted whole before the cut: no part of it survives.
func TestSecretStraddlesCap(t *testing.T) {
	tok := "ghp_" + strings.Repeat("Q7w", 12)
	for _, cut := range []int{3, 10, 20, 30, 39} {
		in := strings.Repeat("x", 100-cut) + " " + tok + " " + strings.Repeat("tail ", 20)
		out, rep := New(WithMaxOutput(101)).Clean(in)
		assert.LessOrEqual(t, len(out), 101)
		assert.NotContains(t, out, tok[4:10], "cut %d: %q", cut, out)
		assert.Equal(t, 1, rep.Count(KindSecret))
		assert.Positive(t, rep.Count(KindTruncated))
	}
}

// TestTokenRulesFitPrefilter checks that no token rule matches a token
// shorter than the prefilter's minimum run.
func TestTokenRulesFitPrefilter(t *testing.T) {
	for _, r := range tokenRuleList() {
		n := len(r.prefix)
		for _, pt := range r.parts {
			n += len(pt.lit) + pt.min
		}
		assert.GreaterOrEqual(t, n, minTokenLen, r.prefix)
	}
}

// TestLongRuns compares longRuns with a direct scan.
func TestLongRuns(t *testing.T) {
	g := newGen(7)
	for n := 0; n < 300; n++ {
		var b strings.Builder
		for b.Len() < n {
			b.WriteString(g.str("ab", g.r.IntN(30)))
			b.WriteString(g.pick(" ", "\n", "\t", "\x00"))
		}
		s := b.String()
		covered := make([]bool, len(s))
		longRuns(s, func(start, end int) {
			for i := start; i < end; i++ {
				covered[i] = true
			}
		})
		for i := 0; i < len(s); {
			if s[i] <= ' ' {
				i++
				continue
			}
			j := i
			for j < len(s) && s[j] > ' ' {
				j++
			}
			if j-i >= minTokenLen {
				require.True(t, covered[i], "run %q of %q missed", s[i:j], s)
			}
			i = j
		}
	}
}

// TestRedactNoAlloc checks that the stages return clean text itself,
// without allocating.
func TestRedactNoAlloc(t *testing.T) {
	text := proseText(16 << 10)
	s := New(WithHostname("build-host-7"))
	var rep Report
	allocs := testing.AllocsPerRun(20, func() {
		if s.secrets.redact(text, &rep) != text || s.hosts.redact(text, &rep) != text {
			t.Fatal("prose changed")
		}
	})
	assert.Zero(t, allocs)
	assert.False(t, rep.Changed())
}
