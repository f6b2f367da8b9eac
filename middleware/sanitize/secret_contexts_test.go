package sanitize

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// cleanCase is an input and the exact output Clean must give, with the
// prefilter and without.
type cleanCase struct{ name, in, want string }

// checkCleanCases runs cases through both modes and checks that cleaning
// the output again changes nothing.
func checkCleanCases(t *testing.T, cases []cleanCase) {
	t.Helper()
	on, off := bothModes(testOpts...)
	for _, c := range cases {
		for _, s := range []*Sanitizer{on, off} {
			got, _ := s.Clean(c.in)
			assert.Equal(t, c.want, got, "%s: %q", c.name, c.in)
			again, _ := s.Clean(got)
			assert.Equal(t, got, again, "%s: not idempotent", c.name)
		}
	}
}

// checkRedactCases is checkCleanCases for the secrets stage alone
// (Sanitizer.Redact), for markup that the HTML stage of Clean would turn
// into text first.
func checkRedactCases(t *testing.T, cases []cleanCase) {
	t.Helper()
	on, off := bothModes(testOpts...)
	for _, c := range cases {
		for _, s := range []*Sanitizer{on, off} {
			got := s.Redact(c.in)
			assert.Equal(t, c.want, got, "%s: %q", c.name, c.in)
			assert.Equal(t, got, s.Redact(got), "%s: not idempotent", c.name)
		}
	}
}

// A value no token rule knows, so only the context can find it.
const plainSecret = "q7Rk2vLx9TzW4mNc8BhJ"

// TestSecretAssignments checks secrets assigned in code: assignment
// operators of Go, Make and PHP, typed declarations, and the quotes of
// several languages.
func TestSecretAssignments(t *testing.T) {
	v := plainSecret
	checkCleanCases(t, []cleanCase{
		{"python", `github_api_token = "` + v + `"`, `github_api_token = "[REDACTED:token]"`},
		{"go short", `apiToken := "` + v + `"`, `apiToken := "[REDACTED:token]"`},
		{"go backticks", "apiToken := `" + v + "`", "apiToken := `[REDACTED:token]`"},
		{"go var", `var apiToken string = "` + v + `"`, `var apiToken string = "[REDACTED:token]"`},
		{"kotlin", `val apiToken: String = "` + v + `"`, `val apiToken: String = "[REDACTED:token]"`},
		{"rust", `const API_KEY: &str = "` + v + `";`, `const API_KEY: &str = "[REDACTED:api-key]";`},
		{"java", `private String dbPassword = "` + v + `";`, `private String dbPassword = "[REDACTED:password]";`},
		{"make simple", `DEPLOY_TOKEN := "` + v + `"`, `DEPLOY_TOKEN := "[REDACTED:token]"`},
		{"make append", `DEPLOY_TOKEN += "` + v + `"`, `DEPLOY_TOKEN += "[REDACTED:token]"`},
		{"make conditional", `DEPLOY_TOKEN ?= ` + v, `DEPLOY_TOKEN ?= [REDACTED:token]`},
		{"php concat", `$apiToken .= "` + v + `";`, `$apiToken .= "[REDACTED:token]";`},
		{"ruby hash", `"api_token" => "` + v + `"`, `"api_token" => "[REDACTED:token]"`},
		{"numeric token", `asana_token: 0811178714805781`, `asana_token: [REDACTED:token]`},
		{"accesskey", `SUMOLOGIC_ACCESSKEY=` + v, `SUMOLOGIC_ACCESSKEY=[REDACTED:api-key]`},
		{"a quote that closes the next", "token=\"\nAPI_TOKEN ?= \"" + v + "\"", `token="[REDACTED:token]"[REDACTED:token]"`},
	})
}

// TestSecretCallArguments checks secrets passed to a call as a quoted name
// and a quoted value.
func TestSecretCallArguments(t *testing.T) {
	v := plainSecret
	checkCleanCases(t, []cleanCase{
		{"java property", `System.setProperty("GITHUB_TOKEN", "` + v + `")`, `System.setProperty("GITHUB_TOKEN", "[REDACTED:token]")`},
		{"go setenv", `os.Setenv("DB_PASSWORD", "` + v + `")`, `os.Setenv("DB_PASSWORD", "[REDACTED:password]")`},
		{"single quotes", `config.put('client_secret', '` + v + `')`, `config.put('client_secret', '[REDACTED:secret]')`},
		{"header", `req.Header.Set("Authorization", "Bearer ` + v + `")`, `req.Header.Set("Authorization", "Bearer [REDACTED:authorization]")`},
		{"escaped json", `{\"args\": [\"api_key\", \"` + v + `\"]}`, `{\"args\": [\"api_key\", \"[REDACTED:api-key]\"]}`},
		{"a list of words", `["password", "expired"]`, `["password", "expired"]`},
		{"a variable", `os.Setenv("API_TOKEN", "$TOKEN")`, `os.Setenv("API_TOKEN", "$TOKEN")`},
	})
}

// TestSecretXMLElements checks secrets in elements named for them, and in
// the value attribute of an element whose key attribute names one.
func TestSecretXMLElements(t *testing.T) {
	v := plainSecret
	checkRedactCases(t, []cleanCase{
		{"element", `<password>` + v + `</password>`, `<password>[REDACTED:password]</password>`},
		{"camel case", `<apiToken>` + v + `</apiToken>`, `<apiToken>[REDACTED:token]</apiToken>`},
		{"namespace", `<ns1:ClientSecret>` + v + `</ns1:ClientSecret>`, `<ns1:ClientSecret>[REDACTED:secret]</ns1:ClientSecret>`},
		{"multiline", "<githubToken>\n    " + v + "\n</githubToken>", "<githubToken>\n    [REDACTED:token]\n</githubToken>"},
		{"attributes", `<password type="plain">` + v + `</password>`, `<password type="plain">[REDACTED:password]</password>`},
		{"maven", `<server><id>repo</id><password>` + v + `</password></server>`, `<server><id>repo</id><password>[REDACTED:password]</password></server>`},
		{"nuget", `<add key="ClearTextPassword" value="` + v + `" />`, `<add key="ClearTextPassword" value="[REDACTED:password]" />`},
		{"empty", `<password></password>`, `<password></password>`},
		{"stand-in", `<password>${DB_PASSWORD}</password>`, `<password>${DB_PASSWORD}</password>`},
		{"nested", `<password><value>x</value></password>`, `<password><value>x</value></password>`},
		{"other element", `<username>alice</username>`, `<username>alice</username>`},
		{"weak key", `<appId>3f9a8c2e7b1d4f6a9c0e5b8d2a7f1c3e</appId>`, `<appId>[REDACTED:api-key]</appId>`},
	})
}

// TestSecretCurlUser checks curl's -u and --user, and the stand-ins of
// documentation that stay.
func TestSecretCurlUser(t *testing.T) {
	checkCleanCases(t, []cleanCase{
		{"plain", `curl -u elastic:P@ssw0rd$1 https://search.example.com`, `curl -u elastic:[REDACTED:password] https://search.example.com`},
		{"long option", `curl --user 'johns:h0pk1ns~21s' https://api.example.com`, `curl --user 'johns:[REDACTED:password]' https://api.example.com`},
		{"equals", `curl --user=deploy:yqDVtkqPECriaLRi https://api.example.com`, `curl --user=deploy:[REDACTED:password] https://api.example.com`},
		{"quoted whole", `curl -s --user "api:d2LkV78zLx!t" https://api.example.com`, `curl -s --user "api:[REDACTED:password]" https://api.example.com`},
		{"quoted parts", `curl --user kevin:'pRf7vG2h1L8nQkW9' -X PATCH`, `curl --user kevin:'[REDACTED:password]' -X PATCH`},
		{"next line", "curl -X POST https://api.example.com/x \\\n  -H 'Accept: text/plain' \\\n  -u developer:yqDVtkqPECriaLRi",
			`curl -X POST https://api.example.com/x \ -H 'Accept: text/plain' \ -u developer:[REDACTED:password]`},
		{"empty user", `curl -u ":d2LkV78zLx!t" https://api.example.com`, `curl -u ":[REDACTED:password]" https://api.example.com`},
		{"key as user", `curl -u "d2LkV78zLx9t:" https://api.example.com`, `curl -u "[REDACTED:credential]:" https://api.example.com`},
		{"variables", `curl -sL --user "$USERNAME:$PASSWORD" "$URL"`, `curl -sL --user "$USERNAME:$PASSWORD" "$URL"`},
		{"positional", `curl -sL --user "$1:$2" "$3"`, `curl -sL --user "$1:$2" "$3"`},
		{"template", `curl -u "{{ .Values.user }}:{{ .Values.password }}"`, `curl -u "{{ .Values.user }}:{{ .Values.password }}"`},
		{"placeholder", `curl -u <user:password> https://example.com`, `curl -u <user:password> https://example.com`},
		{"brackets", `curl --user neo4j:[PASSWORD] https://example.com`, `curl --user neo4j:[PASSWORD] https://example.com`},
		{"doc words", `curl -u username:password https://example.com`, `curl -u username:password https://example.com`},
		{"same", `curl -i -u 'test:test'`, `curl -i -u 'test:test'`},
		{"no password", `curl -u "myusername" https://example.com`, `curl -u "myusername" https://example.com`},
		{"other command", `scp -u alice:s3cretPw9 host:/x`, `scp -u alice:s3cretPw9 host:/x`},
		{"after separator", `curl https://example.com; tool -u alice:s3cretPw9`, `curl https://example.com; tool -u alice:s3cretPw9`},
	})
}

// TestSecretWeakKeys checks keys that name a credential only sometimes:
// their values are redacted when they look random.
func TestSecretWeakKeys(t *testing.T) {
	hex32 := "3f9a8c2e7b1d4f6a9c0e5b8d2a7f1c3e"
	checkCleanCases(t, []cleanCase{
		{"appid random", "https://api.openweathermap.org/data/2.5/weather?q=London&appid=" + hex32,
			"https://api.openweathermap.org/data/2.5/weather?q=London&appid=[REDACTED:api-key]"},
		{"appid word", "appid=weather", "appid=weather"},
		{"appid words", "appid=billing-service-2024", "appid=billing-service-2024"},
		{"appid uuid", "appid=123e4567-e89b-12d3-a456-426614174000", "appid=123e4567-e89b-12d3-a456-426614174000"},
		{"consumer key", `consumer_key: "xvz1evFS4wEEPTGEFPHBog7Kp"`, `consumer_key: "[REDACTED:api-key]"`},
		{"key param", "?key=Zk8wQ2xTcL9mV4bN7pR1&page=2", "?key=[REDACTED:api-key]&page=2"},
		{"license", "license_key=" + hex32, "license_key=[REDACTED:license-key]"},
		{"client secret", "client_secret=" + plainSecret, "client_secret=[REDACTED:secret]"},
		{"provider", `cloudflare: "0574b9f43978174cc2cb9a1068681225433c4"`, `cloudflare: "[REDACTED:cloudflare-key]"`},
		{"provider env", `export FINNHUB=c9b4kq2ad3i8r1f0m2pg`, `export FINNHUB=[REDACTED:finnhub-key]`},
		{"provider uuid", `HEROKU_KEY = "7c1f0a8e-3d4b-4e6f-9a2c-5b8d1e7f3a60"`, `HEROKU_KEY = "[REDACTED:heroku-key]"`},
		{"provider id", `heroku_app_id = "7c1f0a8e-3d4b-4e6f-9a2c-5b8d1e7f3a60"`, `heroku_app_id = "7c1f0a8e-3d4b-4e6f-9a2c-5b8d1e7f3a60"`},
		{"provider inside a word", `SetSysctl = "1vu4slo7hn1vb4qyqd2niyiw"`, `SetSysctl = "1vu4slo7hn1vb4qyqd2niyiw"`},
		{"unknown key", `build = "1vu4slo7hn1vb4qyqd2niyiw"`, `build = "1vu4slo7hn1vb4qyqd2niyiw"`},
		{"key hash", "key=9fceb02d0ae598e95dc970b74767f19372d61af8", "key=9fceb02d0ae598e95dc970b74767f19372d61af8"},
	})
}

// TestSecretStandIns checks the values that stand for a secret without
// being one: variables, placeholders and filler stay.
func TestSecretStandIns(t *testing.T) {
	for _, in := range []string{
		"password=$DB_PASSWORD", "password=${DB_PASSWORD}", `token: "{{ .Values.token }}"`,
		"Authorization: Bearer <token>", "Authorization: Bearer $API_KEY", `-H "Authorization: Bearer XXXXXXXXXXXX"`,
		`-H "Authorization: Basic ..."`, "api_key: YOUR_API_KEY", "access_token=ACCESS_TOKEN",
		"password=xxxxxxxx", "secret: ********", "PuttyPassword=0", "api_key=%API_KEY%",
		"GITHUB_API_KEY=\nDYNATRACE_API_KEY=", "SUMO_ACCESS_KEY=`etcdctl get /sumologic_secret`",
		"publicToken = \"9Cnzj4p4WGeKLs1Pt8QuKUpRKfFLfRYC9AIKjbJTWit\"",
		"public_key = \"9Cnzj4p4WGeKLs1Pt8QuKUpRKfFLfRYC9AIKjbJTWit\"",
		`<entry key="jetbrains.mps.v8_elimination" value="executed" />`,
	} {
		for _, s := range []*Sanitizer{New(), New(withoutPrefilter())} {
			assert.Equal(t, in, s.Redact(in), in)
		}
	}
}

// TestAttributeKeySkipsMalformedSiblings: a "name=" that follows no white
// space is skipped and the search goes on to the real sibling; it once
// looped forever on such input (fuzz seed c09f2c5acea932c0).
func TestAttributeKeySkipsMalformedSiblings(t *testing.T) {
	checkRedactCases(t, []cleanCase{
		{"malformed only", `<m n=name="api_token" value="` + plainSecret + `">`, `<m n=name="api_token" value="` + plainSecret + `">`},
		{"malformed, then real", `<m n=name="x" name="api_token" value="` + plainSecret + `">`, `<m n=name="x" name="api_token" value="[REDACTED:token]">`},
	})
}

// TestPercentDelimitedPasswords: a value between two '%' is a Windows
// environment variable only without digits; "%Gw7xCZ2Rj%" is a password
// (fuzz seed 21a0a3a2ed8d5deb).
func TestPercentDelimitedPasswords(t *testing.T) {
	checkRedactCases(t, []cleanCase{
		{"json", `{"Password": "%GwtxCZyowg2Rj%"}`, `{"Password": "[REDACTED:password]"}`},
		{"pair", `password=%GwtxCZyowg2Rj%`, `password=[REDACTED:password]`},
		{"env variable", `password=%ProgramData%`, `password=%ProgramData%`},
	})
}
