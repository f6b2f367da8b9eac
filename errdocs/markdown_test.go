package errdocs

import (
	"bytes"
	"encoding/json"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// exportRegistry is a service registry over Default with a docs base, a
// beta code whose texts try to break Markdown, and a deprecated code.
func exportRegistry(t *testing.T) *toolerr.Registry {
	t.Helper()
	reg := toolerr.NewRegistry(toolerr.Default(), toolerr.WithDocsBase("https://docs.example.com/errors/"))
	require.NoError(t, reg.Register(
		toolerr.Def{
			Code: "AMOUNT_EXCEEDS_REFUNDABLE", Category: toolerr.CategoryValidation, Status: 422,
			Title:     "The amount | exceeds *the* refundable balance",
			Hint:      "Lower amount to details.refundable_balance_minor or less,\nthen call again.",
			HumanHint: "The refund is larger than what can be refunded.",
			Cause:     "The refund asks for more than\n\nwas paid ``` minus earlier refunds.",
			Repair:    []string{"Read details.refundable_balance_minor.", "Call again with amount at most that value."},
			Related:   []string{toolerr.CodeValidationFailed, "NOT_REGISTERED_ANYWHERE"},
			Stability: toolerr.Beta,
		},
		toolerr.Def{
			Code: "LEGACY_REFUND_LIMIT", Category: toolerr.CategoryRateLimit, Status: 429, Retryable: true,
			Title: "Refund limit reached", Hint: "Wait retry_after_ms, then call again.", HumanHint: "Try again shortly.",
			Retry:     toolerr.RetryPolicy{Strategy: toolerr.StrategyRetryAfter, BaseDelay: 2 * time.Second, MaxAttempts: 3, IdempotencyRequired: true},
			Stability: toolerr.Deprecated, Replacement: toolerr.CodeRateLimited, Removal: "2027-06-30",
		},
	))
	return reg
}

// markdownSection returns the section of code in doc, up to the next
// section or category heading.
func markdownSection(t *testing.T, doc, code string) string {
	t.Helper()
	start := strings.Index(doc, "\n### "+code+"\n")
	require.GreaterOrEqual(t, start, 0, "no section for %s", code)
	rest := doc[start+1:]
	if end := regexp.MustCompile(`\n##+ `).FindStringIndex(rest[4:]); end != nil {
		rest = rest[:end[0]+4]
	}
	return rest
}

// fencedJSON returns the body of the first ```json block of section.
func fencedJSON(t *testing.T, section string) string {
	t.Helper()
	m := regexp.MustCompile("(?s)\n(`{3,})json\n(.*?)\n`{3,}\n").FindStringSubmatch(section)
	require.NotNil(t, m, "no json block in:\n%s", section)
	return m[2]
}

func TestMarkdownHoldsEveryDefaultCodeWithEachPart(t *testing.T) {
	doc := string(Markdown(toolerr.Default()))
	sch := compileProblemSchema(t)
	for _, d := range toolerr.Default().Defs() {
		t.Run(d.Code, func(t *testing.T) {
			s := markdownSection(t, doc, d.Code)
			assert.Contains(t, doc, "| ["+d.Code+"](#"+strings.ToLower(d.Code)+") | `"+string(d.Category)+"` |")
			assert.Contains(t, s, "*"+d.Title+"*")
			assert.Contains(t, s, "- Category: `"+string(d.Category)+"`\n")
			assert.Contains(t, s, "- Severity: `"+string(d.Severity)+"`\n")
			assert.Contains(t, s, "- Status: "+strconv.Itoa(d.Status)+"\n")
			assert.Contains(t, s, "- Retryable: "+yesNo(d.Retryable))
			assert.Contains(t, s, "- Stability: stable\n")
			assert.Contains(t, s, "**Cause.** "+d.Cause+"\n")
			for i, step := range d.Repair {
				assert.Contains(t, s, strconv.Itoa(i+1)+". "+step+"\n")
			}
			assert.Contains(t, s, "**Hint for the model.** "+d.Hint+"\n")
			assert.Contains(t, s, "**Hint for the user.** "+d.HumanHint+"\n")
			for _, a := range d.Actions {
				assert.Contains(t, s, "`"+a+"`")
			}
			for _, rel := range d.Related {
				assert.Contains(t, s, "["+rel+"](#"+strings.ToLower(rel)+")")
			}
			if len(d.Related) == 0 {
				assert.Contains(t, s, "**Related codes.** None.\n")
			}

			payload := fencedJSON(t, s)
			assert.True(t, strings.HasPrefix(payload, "{\n  \"type\""), "pretty-printed:\n%s", payload)
			var got map[string]any
			require.NoError(t, json.Unmarshal([]byte(payload), &got))
			assert.Equal(t, d.Code, got["code"])
			assert.Equal(t, ExampleRequestID, got["request_id"])
			assert.NoError(t, sch.Validate(decodeInstance(t, []byte(payload))))
		})
	}
}

func TestMarkdownOrderIsCategoryThenCode(t *testing.T) {
	doc := string(Markdown(exportRegistry(t)))
	var codes []string
	for _, m := range regexp.MustCompile(`(?m)^### ([A-Z0-9_]+)$`).FindAllStringSubmatch(doc, -1) {
		codes = append(codes, m[1])
	}
	require.Len(t, codes, len(toolerr.Default().Defs())+2)
	rank := func(code string) (int, string) {
		d, ok := exportRegistry(t).Lookup(code)
		require.True(t, ok)
		return slices.Index(toolerr.Categories(), d.Category), code
	}
	for i := 1; i < len(codes); i++ {
		pc, prev := rank(codes[i-1])
		cc, cur := rank(codes[i])
		assert.True(t, pc < cc || pc == cc && prev < cur, "%s before %s", prev, cur)
	}
	// One category heading per category present, in taxonomy order.
	heads := regexp.MustCompile(`(?m)^## Category: (\w+)$`).FindAllStringSubmatch(doc, -1)
	assert.Equal(t, "validation", heads[0][1])
	assert.Equal(t, "cancelled", heads[len(heads)-1][1])
}

func TestMarkdownServiceCodes(t *testing.T) {
	doc := string(Markdown(exportRegistry(t)))

	s := markdownSection(t, doc, "AMOUNT_EXCEEDS_REFUNDABLE")
	assert.Contains(t, doc, `| The amount \| exceeds *the* refundable balance |`, "pipes escaped in the index")
	assert.Contains(t, s, `*The amount | exceeds \*the\* refundable balance*`)
	assert.Contains(t, s, "- Stability: beta\n")
	assert.Contains(t, s, "- Docs: <https://docs.example.com/errors/AMOUNT_EXCEEDS_REFUNDABLE>\n")
	assert.Contains(t, s, "**Hint for the model.** Lower amount to details.refundable_balance_minor or less, then call again.\n",
		"line breaks collapsed")
	assert.Contains(t, s, "**Cause.** The refund asks for more than was paid ``` minus earlier refunds.\n")
	assert.Contains(t, s, "1. Read details.refundable_balance_minor.\n2. Call again with amount at most that value.\n")
	assert.Contains(t, s, "**Related codes.** [VALIDATION_FAILED](#validation_failed), `NOT_REGISTERED_ANYWHERE`\n",
		"unregistered related codes are not linked")
	var payload map[string]any
	require.NoError(t, json.Unmarshal([]byte(fencedJSON(t, s)), &payload))
	assert.Equal(t, "https://docs.example.com/errors/AMOUNT_EXCEEDS_REFUNDABLE", payload["type"])

	d := markdownSection(t, doc, "LEGACY_REFUND_LIMIT")
	assert.Contains(t, d, "> **Deprecated.** Use [RATE_LIMITED](#rate_limited) instead. This code is removed on 2027-06-30.\n")
	assert.Contains(t, d, "- Stability: deprecated\n")
	assert.Contains(t, d, "- Retryable: yes, after `retry_after_ms` (2s when absent), at most 3 attempts, only with an idempotency key\n")
	assert.Contains(t, d, "**Repair.** Follow the hint.\n")
	assert.Contains(t, d, "**Cause.** Not documented.\n")
	assert.Contains(t, markdownSection(t, doc, toolerr.CodeUpstreamTimeout), "- Retryable: yes, with exponential backoff from 500ms, at most 3 attempts, only with an idempotency key\n")
}

func TestWriteFencedOutlastsBacktickRuns(t *testing.T) {
	var b bytes.Buffer
	writeFenced(&b, "json", []byte("{\"a\":\"````\"}\n"))
	assert.Equal(t, "`````json\n{\"a\":\"````\"}\n`````\n", b.String())
}

func TestMarkdownIsStable(t *testing.T) {
	assert.Equal(t, string(Markdown(toolerr.Default())), string(Markdown(toolerr.Default())))
}

// TestExportsShowViolations: the Markdown and OpenAPI exports carry the
// violations member: in VALIDATION_FAILED's example, as argcheck builds
// it, and in the Problem schema.
func TestExportsShowViolations(t *testing.T) {
	md := string(Markdown(toolerr.Default()))
	section := md[strings.Index(md, "### VALIDATION_FAILED"):]
	section = section[:strings.Index(section[1:], "\n### ")+1]
	for _, want := range []string{`"violations": [`, `"field": "/status"`, `"example_request": {`} {
		assert.Contains(t, section, want)
	}

	doc, err := OpenAPI(toolerr.Default())
	require.NoError(t, err)
	var api struct {
		Components struct {
			Schemas   map[string]map[string]any `json:"schemas"`
			Responses map[string]struct {
				Content map[string]struct {
					Example map[string]any `json:"example"`
				} `json:"content"`
			} `json:"responses"`
		} `json:"components"`
	}
	require.NoError(t, json.Unmarshal(doc, &api))
	props, _ := api.Components.Schemas[OpenAPIProblemSchema]["properties"].(map[string]any)
	assert.Contains(t, props, "violations")
	example := api.Components.Responses[toolerr.CodeValidationFailed].Content[toolerr.ContentTypeProblem].Example
	assert.Len(t, example["violations"], 2)
	raw, err := json.Marshal(example)
	require.NoError(t, err)
	assert.NoError(t, toolerr.Validate(raw), "the example keeps the contract")
}
