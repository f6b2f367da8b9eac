package translate

import (
	"net/http"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// rawJSON is a JSON response of status with body, for the unit tests.
func rawJSON(status int, body string) *Raw {
	return &Raw{Status: status, Header: http.Header{"Content-Type": {"application/json"}}, Body: []byte(body)}
}

func TestGraphQLTranslate(t *testing.T) {
	tr := &Vendor{Parse: graphQLTranslate}
	cases := []struct {
		name   string
		status int
		body   string
		ok     bool
		code   string
		field  string
	}{
		{"errors without data", 200, `{"errors":[{"message":"boom","extensions":{"code":"X"}}]}`, true, "X", ""},
		{"null data", 200, `{"data":null,"errors":[{"message":"boom","path":["a",0,"b"]}]}`, true, "", "a.0.b"},
		{"all-null roots", 200, `{"data":{"a":null,"b":null},"errors":[{"message":"boom"}]}`, true, "", ""},
		{"partial data", 200, `{"data":{"a":1,"b":null},"errors":[{"message":"boom"}]}`, false, "", ""},
		{"type as code", 200, `{"errors":[{"type":"NOT_FOUND","message":"nope"}]}`, true, "NOT_FOUND", ""},
		{"empty errors", 200, `{"errors":[]}`, false, "", ""},
		{"errors not array", 200, `{"errors":"nope"}`, false, "", ""},
		{"item without message", 200, `{"errors":[{"code":"X"}]}`, false, "", ""},
		{"message wrong type", 200, `{"errors":[{"message":42}]}`, false, "", ""},
		{"null item", 200, `{"errors":[null]}`, false, "", ""},
		{"string items", 400, `{"errors":["bad"]}`, false, "", ""},
		{"malformed", 200, `{"errors":[{"message":"x"}`, false, "", ""},
		{"array body", 200, `[{"message":"x"}]`, false, "", ""},
		{"REST shape on 400 is left to the generic JSON translators", 400, `{"errors":[{"message":"Invalid email"}]}`, false, "", ""},
		{"GraphQL shape on 400", 400, `{"errors":[{"message":"bad","locations":[{"line":1,"column":1}]}]}`, true, "", ""},
		{"data key on 500", 500, `{"data":null,"errors":[{"message":"bad"}]}`, true, "", ""},
		{"bad path element", 200, `{"errors":[{"message":"x","path":["a",{"b":1}]}]}`, true, "", ""},
		{"negative index", 200, `{"errors":[{"message":"x","path":["a",-1]}]}`, true, "", ""},
		{"extensions wrong type", 200, `{"errors":[{"message":"x","extensions":"oops"}]}`, true, "", ""},
		{"code wrong type", 200, `{"errors":[{"message":"x","extensions":{"code":7}}]}`, true, "", ""},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			o, ok := tr.Translate(rawJSON(c.status, c.body))
			assert.Equal(t, c.ok, ok)
			if ok {
				assert.Equal(t, c.code, o.VendorCode)
				assert.Equal(t, c.field, o.Field)
			}
		})
	}
}

func TestGraphQLNotJSON(t *testing.T) {
	r := &Raw{Status: 200, Header: http.Header{"Content-Type": {"text/html"}}, Body: []byte(`{"errors":[{"message":"x"}]}`)}
	_, ok := graphQLTranslate(r)
	assert.False(t, ok, "an HTML page is never GraphQL")
}

func TestGraphQLRateLimitEvidence(t *testing.T) {
	o, ok := graphQLTranslate(rawJSON(200, `{"errors":[{"message":"slow down","extensions":{"code":"ratelimited"}}]}`))
	assert.True(t, ok)
	assert.True(t, o.Evidence.RateLimited)
}

func TestGraphQLPathBounded(t *testing.T) {
	parts := make([]string, 2000)
	for i := range parts {
		parts[i] = `"segment"`
	}
	o, ok := graphQLTranslate(rawJSON(200, `{"errors":[{"message":"x","path":[`+strings.Join(parts, ",")+`]}]}`))
	assert.True(t, ok)
	assert.LessOrEqual(t, len(o.Field), maxPathLen)
	assert.True(t, strings.HasPrefix(o.Field, "segment.segment"))
}
