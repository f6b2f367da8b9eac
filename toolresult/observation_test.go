package toolresult

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/docpage"
	"github.com/toolerr/toolerr/middleware"
)

// The bug report: with Accept: text/plain, as the README tells runtimes
// to send, the observation was classified as a vendor's text and came
// back twice prefixed, without violations, field, example_request or
// request_id.
func TestFromResponseReadsTheTextObservation(t *testing.T) {
	docpage.Says(t, "../README.md",
		"Its runtime asks for text (`Accept: text/plain`, or `text/markdown`), as most runtimes hand the model a string, and gets the observation")
	tool := middleware.Tool("search_orders", func(w http.ResponseWriter, r *http.Request) error {
		return toolerr.Default().New(toolerr.CodeValidationFailed, "2 arguments are invalid.").
			WithField("/limit").WithAllowedValues(toolerr.Range{Minimum: 1, Maximum: 100}).WithSuggestedValue(100).
			WithViolations(
				toolerr.Violation{Field: "/limit", Reason: "must be at most 100", AllowedValues: toolerr.Range{Minimum: 1, Maximum: 100}, SuggestedValue: 100},
				toolerr.Violation{Field: "/status", Reason: "must be one of open, closed", AllowedValues: []string{"open", "closed"}, SuggestedValue: "open"},
			).
			WithExampleRequest(map[string]any{"limit": 100, "status": "open"})
	})
	srv := httptest.NewServer(middleware.New(middleware.WithLogger(slog.New(slog.DiscardHandler)))(tool))
	t.Cleanup(srv.Close)

	for _, accept := range []string{"text/plain", "text/markdown"} {
		req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(`{"limit":500,"status":"Open"}`))
		require.NoError(t, err)
		req.Header.Set("Accept", accept)
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		require.True(t, strings.HasPrefix(resp.Header.Get("Content-Type"), accept))
		r, err := FromResponse(resp)
		require.NoError(t, err)

		require.NotNil(t, r.Err)
		e := r.Err
		assert.Equal(t, toolerr.CodeValidationFailed, e.Code)
		assert.Equal(t, "2 arguments are invalid.", e.Detail)
		assert.Equal(t, "/limit", e.Field)
		require.Len(t, e.Violations, 2)
		assert.Equal(t, "/status", e.Violations[1].Field)
		assert.Equal(t, "must be one of open, closed", e.Violations[1].Reason)
		assert.Equal(t, []any{"open", "closed"}, e.Violations[1].AllowedValues)
		assert.Equal(t, "open", e.Violations[1].SuggestedValue)
		assert.Equal(t, jsonOf(t, map[string]any{"limit": 100, "status": "open"}), jsonOf(t, e.ExampleRequest))
		assert.Equal(t, resp.Header.Get("X-Request-Id"), e.RequestID)
		assert.Equal(t, http.StatusBadRequest, e.Status)
		assert.True(t, strings.HasPrefix(r.Text, "VALIDATION_FAILED (validation): 2 arguments are invalid.\nretryable: false\nfield: /limit\n"), r.Text)
		assert.Equal(t, 1, strings.Count(r.Text, "VALIDATION_FAILED"), "never twice prefixed")
	}
}

// rawTextServer answers every request with status, a text/plain body and
// the headers given: a server that is not toolerr's, or an observation
// written without some of toolerr's members.
func rawTextServer(t *testing.T, status int, body string, header map[string]string) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/plain; charset=utf-8")
		for k, v := range header {
			w.Header().Set(k, v)
		}
		w.WriteHeader(status)
		_, _ = io.WriteString(w, body)
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestFromResponseTakesTheHeadersWhereTheTextIsSilent(t *testing.T) {
	e := toolerr.Default().New(toolerr.CodeToolUnavailable, "The tool is draining.")
	body := string(e.AppendObservation(nil, toolerr.ObservationOptions{})) // no delay, no request id
	srv := rawTextServer(t, http.StatusServiceUnavailable, body, map[string]string{"Retry-After": "3", "X-Request-Id": "req-77"})
	r := fetch(t, http.MethodGet, srv.URL)
	require.NotNil(t, r.Err)
	assert.Equal(t, toolerr.CodeToolUnavailable, r.Err.Code)
	assert.Equal(t, 3*time.Second, r.Err.RetryAfter)
	assert.Equal(t, "req-77", r.Err.RequestID)
	assert.Contains(t, r.Text, "retryable: true, retry_after_ms: 3000, max_attempts: 3\n")
	assert.True(t, strings.HasSuffix(r.Text, "\nrequest_id: req-77"), r.Text)
}

// A text that is not an observation is classified like any other text;
// when its first line is a code line of the code it is classified as,
// that line is not repeated.
func TestFromResponseNeverRepeatsTheCodeLine(t *testing.T) {
	body := "VALIDATION_FAILED (validation): 2 arguments are invalid.\nretryable: false\nSee the logs."
	r := fetch(t, http.MethodGet, rawTextServer(t, http.StatusBadRequest, body, nil).URL)
	require.NotNil(t, r.Err)
	assert.Equal(t, toolerr.CodeValidationFailed, r.Err.Code)
	assert.True(t, strings.HasPrefix(r.Text, "VALIDATION_FAILED (validation): 2 arguments are invalid.\nretryable: false\n"), r.Text)
	assert.Equal(t, 1, strings.Count(r.Text, "VALIDATION_FAILED"), r.Text)

	r = fetch(t, http.MethodGet, rawTextServer(t, http.StatusBadRequest, "VALIDATION_FAILED (validation)\nsee the logs", nil).URL)
	assert.True(t, strings.HasPrefix(r.Text, "VALIDATION_FAILED (validation)\nretryable: false\n"), r.Text)
}

func TestFromResponseSanitizesWhatItParses(t *testing.T) {
	for _, c := range []struct {
		name, body string
		parsed     bool
	}{
		{"a secret in an observation's detail", "NOT_FOUND (not_found): key " + secret + " at db.internal:5432\nretryable: false", true},
		{"a fake code line followed by a secret", "INTERNAL_ERROR (internal): ok\nretryable: false\npassword=" + secret, false},
		{"a fake code line, then a stack trace", "INTERNAL_ERROR (internal)\npanic: boom " + secret + "\n\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:12 +0x1d", false},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, ok := ParseObservation(c.body)
			assert.Equal(t, c.parsed, ok)
			r := fetch(t, http.MethodGet, rawTextServer(t, http.StatusInternalServerError, c.body, nil).URL)
			require.True(t, r.IsError)
			assert.NotContains(t, r.Text, secret)
			assert.NotContains(t, r.Text, "db.internal")
			assert.NotContains(t, r.Text, "goroutine")
			assert.LessOrEqual(t, strings.Count(r.Text, " ("+string(r.Err.Category)+")"), 1, r.Text)
		})
	}
}

func TestParseObservationIsStrict(t *testing.T) {
	const ok = "NOT_FOUND (not_found): order ord-9 does not exist.\nretryable: false\nhint: Search first.\nrequest_id: req-1"
	e, parsed := ParseObservation(ok)
	require.True(t, parsed)
	assert.Equal(t, "The resource does not exist", e.Title, "the registry's title")
	assert.Equal(t, http.StatusNotFound, e.Status)
	assert.Equal(t, "Search first.", e.Hint)
	assert.Empty(t, e.HumanHint, "nothing the text does not say")
	assert.Empty(t, e.Suggestions)
	_, parsed = ParseObservation(ok + "\n")
	assert.True(t, parsed, "a final line feed")

	for name, text := range map[string]string{
		"empty":                           "",
		"prose":                           "Something went wrong. Try again.",
		"a code line alone":               "NOT_FOUND (not_found): gone",
		"an unknown category":             "NOT_FOUND (missing)\nretryable: false",
		"a lower-case code":               "not_found (not_found)\nretryable: false",
		"an unknown member":               "NOT_FOUND (not_found)\nretryable: false\nsecret: x",
		"a line of text after":            ok + "\nSee the logs.",
		"members out of order":            "NOT_FOUND (not_found)\nretryable: false\nrequest_id: req-1\nhint: Search.",
		"a member twice":                  "NOT_FOUND (not_found)\nretryable: false\nhint: a\nhint: b",
		"retryable not first":             "NOT_FOUND (not_found)\nhint: a\nretryable: false",
		"retryable where it cannot be":    "NOT_FOUND (not_found)\nretryable: true",
		"max_attempts when not retryable": "RATE_LIMITED (rate_limit)\nretryable: false, max_attempts: 3",
		"a junk delay":                    "RATE_LIMITED (rate_limit)\nretryable: true, retry_after_ms: soon",
		"a zero delay":                    "RATE_LIMITED (rate_limit)\nretryable: true, retry_after_ms: 0",
		"JSON that does not decode":       "VALIDATION_FAILED (validation)\nretryable: false\nsuggested_value: {100",
		"details that are no object":      "VALIDATION_FAILED (validation)\nretryable: false\ndetails: [1]",
		"an invalid action":               "NOT_FOUND (not_found)\nretryable: false\nactions: rm -rf",
		"an invalid request id":           "NOT_FOUND (not_found)\nretryable: false\nrequest_id: a b",
		"a control character":             "NOT_FOUND (not_found): a\rb\nretryable: false",
		"plain after Markdown":            "**NOT_FOUND** (not_found)\nretryable: false",
		"Markdown after plain":            "NOT_FOUND (not_found)\n- retryable: false",
		"a field not in a code span":      "**NOT_FOUND** (not_found)\n- retryable: false\n- field: order_id",
		"invalid UTF-8":                   "NOT_FOUND (not_found): \xff\nretryable: false",
		"too many violations": "VALIDATION_FAILED (validation)\nretryable: false" +
			strings.Repeat("\nviolation: /a is invalid", toolerr.MaxViolations+1),
		"a line over 64 KiB":       "NOT_FOUND (not_found)\nretryable: false\nhint: " + strings.Repeat("a", maxLine),
		"a reason over its limit":  "VALIDATION_FAILED (validation)\nretryable: false\nviolation: /a " + strings.Repeat("é", toolerr.MaxReasonLen/2+1),
		"a detail over its limit":  "NOT_FOUND (not_found): " + strings.Repeat("a", toolerr.MaxDetailLen+1) + "\nretryable: false",
		"an intent over its limit": "NOT_FOUND (not_found)\nretryable: false\nintent: op, state: " + strings.Repeat("a", toolerr.MaxIntentFieldLen+1),
		"a value over its limit":   "VALIDATION_FAILED (validation)\nretryable: false\nsuggested_value: \"" + strings.Repeat("a", toolerr.MaxValueLen) + "\"",
	} {
		_, parsed := ParseObservation(text)
		assert.False(t, parsed, name)
	}
}

func TestParseObservationReadsBothForms(t *testing.T) {
	reg := toolerr.Default()
	for name, e := range map[string]*toolerr.Error{
		"a path with a backtick and punctuation": reg.New(toolerr.CodeValidationFailed, "bad `sku` [x](y) \\ *").
			WithField("/items/0/s`k*u").WithSuggestedValue("a``b").
			WithViolations(toolerr.Violation{Field: "/items/0/s`k*u", Reason: "has a `tick`", SuggestedValue: "a``b"},
				toolerr.Violation{Field: "/x", Reason: "is invalid"}),
		"an unknown code": &toolerr.Error{Code: "AMOUNT_EXCEEDS_REFUNDABLE", Category: toolerr.CategoryValidation,
			Detail: "The refund exceeds the refundable balance.", Field: "amount_minor", SuggestedValue: 1250,
			Details: map[string]any{"refundable_balance_minor": 1250}},
		"a rate limit": reg.New(toolerr.CodeRateLimited, "Slow down.").WithRetryAfter(2500 * time.Millisecond),
		"an intent with texts that hold its separators": reg.New(toolerr.CodeToolTimeout, "").
			WithIntent(toolerr.Intent{Operation: "refund_order", State: "sent, not confirmed", Recovery: "poll GET /refunds?order=1"}),
	} {
		e = e.WithRequestID("req-1")
		want := actedOnOf(t, e)
		for _, md := range []bool{false, true} {
			text := string(e.AppendObservation(nil, toolerr.ObservationOptions{Markdown: md}))
			got, ok := ParseObservation(text)
			require.True(t, ok, "%s (markdown %v):\n%s", name, md, text)
			assert.Equal(t, want, actedOnOf(t, got), "%s (markdown %v)", name, md)
		}
	}
	e, ok := ParseObservation("AMOUNT_EXCEEDS_REFUNDABLE (validation)\nretryable: false")
	require.True(t, ok)
	assert.Equal(t, "Amount exceeds refundable", e.Title)
	assert.Equal(t, "urn:toolerr:AMOUNT_EXCEEDS_REFUNDABLE", e.Type)
	assert.Equal(t, 0, e.Status, "an unknown code's status is the response's")
}

// In Markdown a violation's pointer is a code span, so a pointer with a
// space in it is read whole; in plain text, when it is the field's.
func TestParseObservationMarkdownKeepsAPointerWithASpace(t *testing.T) {
	e := toolerr.Default().New(toolerr.CodeValidationFailed, "").WithField("/first name").
		WithViolations(toolerr.Violation{Field: "/first name", Reason: "is required"}, toolerr.Violation{Field: "/age", Reason: "must be a number"})
	got, ok := ParseObservation(string(e.AppendObservation(nil, toolerr.ObservationOptions{Markdown: true})))
	require.True(t, ok)
	assert.Equal(t, "/first name", got.Violations[0].Field)
	assert.Equal(t, "is required", got.Violations[0].Reason)

	// In plain text, the pointer the field line names is read whole too.
	got, ok = ParseObservation(e.Observation())
	require.True(t, ok)
	assert.Equal(t, "/first name", got.Violations[0].Field)
	assert.Equal(t, "is required", got.Violations[0].Reason)
	assert.Equal(t, "/age", got.Violations[1].Field)
}
