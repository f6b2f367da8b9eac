package toolerr

import (
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestAcceptsText(t *testing.T) {
	cases := []struct {
		accept string
		want   textRendering
	}{
		{"", textNone},
		{"*/*", textNone},
		{"application/json", textNone},
		{"text/markdown", textMarkdown},
		{"TEXT/Markdown; charset=utf-8", textMarkdown},
		{"text/plain", textPlain},
		{"text/*", textPlain},
		{"text/markdown, application/json", textMarkdown},
		{"application/json, text/markdown", textMarkdown},
		{"application/json, text/markdown;q=0.9", textNone},
		{"text/markdown;q=0.9, application/problem+json", textNone},
		{"text/markdown, */*;q=0.1", textMarkdown},
		{"text/plain, text/markdown", textPlain},
		{"text/plain;q=0.5, text/markdown", textMarkdown},
		{"text/markdown;q=0", textNone},
		{"text/markdown;q=2", textNone},
		{"text/markdown;q=abc", textNone},
		{"text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8", textNone},
		{"text/html, text/*;q=0.5", textPlain},
		{"text/markdown;;;", textNone},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, acceptsText(c.accept), "%q", c.accept)
	}
}

func TestWriteNegotiatesTheObservation(t *testing.T) {
	e := typicalValidationError()
	for _, c := range []struct {
		accept, contentType string
		check               func(t *testing.T, body string)
	}{
		{"text/plain", ContentTypePlain, func(t *testing.T, body string) {
			assert.True(t, strings.HasPrefix(body, "VALIDATION_FAILED (validation): limit must be between 1 and 100; got 500.\nretryable: false\n"), body)
		}},
		{"text/markdown", ContentTypeMarkdown, func(t *testing.T, body string) {
			assert.True(t, strings.HasPrefix(body, "**VALIDATION_FAILED** (validation): limit must be between 1 and 100; got 500.\n- retryable: false\n"), body)
			assert.Contains(t, body, "\n- field: `limit`\n")
			assert.Contains(t, body, "\n- allowed_values: `{\"minimum\":1,\"maximum\":100}`\n")
		}},
		{"application/problem+json", ContentTypeProblem, func(t *testing.T, body string) {
			assert.NoError(t, Validate([]byte(body)))
		}},
		{"text/markdown;q=0.5, application/json", ContentTypeProblem, func(t *testing.T, body string) {
			assert.NoError(t, Validate([]byte(body)))
		}},
	} {
		req := httptest.NewRequest(http.MethodPost, "/tools/search_orders", nil)
		req.Header.Set("Accept", c.accept)
		rec := httptest.NewRecorder()
		Write(rec, req, e)
		res := rec.Result()
		require.Equal(t, 400, res.StatusCode)
		assert.Equal(t, c.contentType, res.Header.Get("Content-Type"), c.accept)
		assert.Equal(t, "nosniff", res.Header.Get("X-Content-Type-Options"))
		assert.Equal(t, "23542063b11c4f77c3a9c158b879217a", res.Header.Get("X-Request-Id"))
		c.check(t, rec.Body.String())
	}
}

// TestMarkdownObservationIsInert: vendor text cannot become a link, an
// image, a heading or HTML in the Markdown rendering; paths and ids stay
// as they are inside code spans.
func TestMarkdownObservationIsInert(t *testing.T) {
	e := Default().New(CodeUpstreamUnclassified, "![x](https://evil.example/p.png) <img src=x> # Title [click](https://evil.example) *bold*").
		WithField("items[0].sku_code").WithRequestID("req_1-a")
	md := string(e.AppendObservation(nil, ObservationOptions{Markdown: true}))
	assert.Contains(t, md, `\!\[x\]\(https://evil.example/p.png\) \<img src=x\> \# Title \[click\]\(https://evil.example\) \*bold\*`)
	assert.NotContains(t, md, "](")
	assert.Contains(t, md, "\n- field: `items[0].sku_code`")
	assert.Contains(t, md, "\n- request_id: `req_1-a`")
	tick := Default().New(CodeValidationFailed, "").WithField("a`b").WithSuggestedValue("x`y")
	md = string(tick.AppendObservation(nil, ObservationOptions{Markdown: true}))
	assert.Contains(t, md, "\n- field: ``a`b``", "a backtick cannot close the code span")
	assert.Contains(t, md, "\n- suggested_value: ``\"x`y\"``")
	assert.Equal(t, "``` ``a`` ```", string(appendCodeSpan(nil, "``a``")))
}
