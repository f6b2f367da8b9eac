package toolresult

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"
	"unicode"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
	"github.com/toolerr/toolerr/middleware/sanitize"
)

// actedOn is the set of members an agent acts on, as the contract renders
// them: what FromResponse must recover from every rendering, losslessly.
// Texts are as the observation shows them (cut to the contract's limits,
// control characters as spaces, trimmed); JSON values are compared as
// JSON; violations as the observation lists them (none when the only one
// is the one field names, whose values are then the top-level ones).
type actedOn struct {
	Code           string
	Category       toolerr.Category
	Detail         string // empty when it is the title
	Retryable      bool
	RetryAfterMS   int64
	MaxAttempts    int // when retryable
	Field          string
	AllowedValues  string // JSON
	SuggestedValue string // JSON
	Violations     []actedOnViolation
	ExampleRequest string // JSON
	Details        string // JSON
	Actions        []string
	Hint           string
	Intent         *toolerr.Intent
	RequestID      string
}

type actedOnViolation struct {
	Field, Reason                 string
	AllowedValues, SuggestedValue string
}

// actedOnOf projects e on the acted-on set, through its problem+json
// rendering, which applies the contract's limits (cuts, dropped values,
// valid actions, retryable only where it can be, the delay a retryable
// rate limit always carries).
func actedOnOf(t *testing.T, e *toolerr.Error) actedOn {
	t.Helper()
	r, err := toolerr.Parse(e.AppendJSON(nil))
	require.NoError(t, err)
	a := actedOn{
		Code: r.Code, Category: r.Category, Retryable: r.Retryable,
		RetryAfterMS: r.RetryAfter.Milliseconds(), Field: shown(r.Field),
		AllowedValues: jsonOf(t, r.AllowedValues), SuggestedValue: jsonOf(t, r.SuggestedValue),
		ExampleRequest: jsonOf(t, r.ExampleRequest), Actions: r.Actions, Hint: shown(r.Hint),
		RequestID: r.RequestID,
	}
	if d := shown(r.Detail); d != r.Title {
		a.Detail = d
	}
	if r.Retryable && r.RetryPolicy != nil {
		a.MaxAttempts = r.RetryPolicy.MaxAttempts
	}
	if len(r.Details) > 0 {
		a.Details = jsonOf(t, r.Details)
	}
	vs := r.Violations
	if len(vs) > 1 || len(vs) == 1 && vs[0].Field != r.Field {
		if vs[0].Field == r.Field {
			a.AllowedValues, a.SuggestedValue = jsonOf(t, vs[0].AllowedValues), jsonOf(t, vs[0].SuggestedValue)
		}
		for _, v := range vs {
			reason := shown(v.Reason)
			if reason == "" {
				reason = "is invalid"
			}
			a.Violations = append(a.Violations, actedOnViolation{shown(v.Field), reason,
				jsonOf(t, v.AllowedValues), jsonOf(t, v.SuggestedValue)})
		}
	}
	if in := r.Intent; in != nil && shown(in.Operation) != "" {
		a.Intent = &toolerr.Intent{Operation: shown(in.Operation), ResourceID: shown(in.ResourceID),
			State: shown(in.State), Recovery: shown(in.Recovery)}
	}
	return a
}

// shown is a text as the observation shows it: control characters as
// spaces, trimmed.
func shown(s string) string {
	return strings.TrimSpace(strings.Map(func(r rune) rune {
		if unicode.IsControl(r) || r == '\u2028' || r == '\u2029' {
			return ' '
		}
		return r
	}, s))
}

// jsonOf is v's JSON, with numbers as they were written; "" for nil.
func jsonOf(t *testing.T, v any) string {
	t.Helper()
	if v == nil {
		return ""
	}
	b, err := json.Marshal(v)
	require.NoError(t, err)
	return string(b)
}

// richError builds an error of d's code carrying every acted-on member
// the code can: violations (several, with values) and example_request on
// the validation codes, over-long texts that the contract cuts, and
// Markdown's punctuation in texts and values.
func richError(d toolerr.Def) *toolerr.Error {
	reg := toolerr.Default()
	long := strings.Repeat("Le délai dépassé; ", 160) // 3 KiB of two-byte runes
	detail := "Order ord-42 for " + d.Code + ": 50% off *today* _only_ [see](docs) `x` \\ #1 |a| ~b~ {c} +d -e !f <tag> & more."
	e := reg.New(d.Code, detail).
		WithDetails(map[string]any{"order_id": "ord-42", "amount_minor": 1250, "nested": map[string]any{"k": []any{1, "two`s", true, nil}}}).
		WithActions(append(d.Actions, "use_fallback:search_orders_v2")...).
		WithIntent(toolerr.Intent{Operation: "create_invoice (step 2)", ResourceID: "inv-123", State: "may be in progress server-side", Recovery: "poll GET /invoices/inv-123"})
	if d.Retryable && len(d.Code)%2 == 0 {
		e = e.WithRetryAfter(1500 * time.Millisecond)
	}
	switch d.Category {
	case toolerr.CategoryValidation:
		vs := []toolerr.Violation{
			{Field: "/limit", Reason: "must be at most 100", AllowedValues: toolerr.Range{Minimum: 1, Maximum: 100}, SuggestedValue: 100},
			{Field: "/status", Reason: "must be one of the listed values (case matters)", AllowedValues: []any{"open", "closed", "`held`"}, SuggestedValue: "open"},
			{Field: "/note", Reason: "is too long", SuggestedValue: "a, suggested_value: 1"},
			{Field: "", Reason: "has an unknown property, allowed_values: \"x\" (drop it)"},
			{Field: "/items/0/sku", Reason: strings.Repeat("must match the pattern ", 20)}, // over MaxReasonLen
		}
		if d.Code == toolerr.CodePayloadTooLarge {
			vs = vs[:1] // the one field names: not listed, its values top-level
		}
		e = e.WithField("/limit").WithAllowedValues(vs[0].AllowedValues).WithSuggestedValue(100).
			WithViolations(vs...).
			WithExampleRequest(map[string]any{"limit": 100, "status": "open", "query": "a<b & c>d"})
		if d.Code == toolerr.CodeValidationFailed {
			e = e.WithDetail(long).WithHint(long) // cut to MaxDetailLen and MaxHintLen
		}
	case toolerr.CategoryNotFound:
		e = e.WithField("order_id").WithSuggestedValue("ord-42")
	}
	return e
}

// renderings are the four forms a toolerr server answers in, chosen by
// Accept (the envelope by the server's format).
var renderings = []struct {
	name, accept string
	envelope     bool
}{
	{"problem+json", "application/problem+json", false},
	{"envelope", "application/json", true},
	{"text", "text/plain", false},
	{"markdown", "text/markdown", false},
}

// codeServers serve, under toolerr's middleware (problem+json and
// envelope formats), a tool at /tools/{code} that fails with richError of
// that code.
func codeServers(t *testing.T) (problem, envelope *httptest.Server) {
	t.Helper()
	byCode := map[string]*toolerr.Error{}
	for _, d := range toolerr.Default().Defs() {
		byCode[d.Code] = richError(d)
	}
	tool := middleware.Tool("search_orders", func(w http.ResponseWriter, r *http.Request) error {
		return byCode[r.PathValue("code")]
	})
	serve := func(opts ...middleware.Option) *httptest.Server {
		mux := http.NewServeMux()
		mux.Handle("POST /tools/{code}", tool)
		quiet := middleware.WithLogger(slog.New(slog.DiscardHandler))
		srv := httptest.NewServer(middleware.New(append(opts, quiet)...)(mux))
		t.Cleanup(srv.Close)
		return srv
	}
	return serve(), serve(middleware.WithFormat(toolerr.FormatEnvelope))
}

func TestFromResponseRoundTripsEveryBuiltinCode(t *testing.T) {
	problem, envelope := codeServers(t)
	clean := sanitize.New().CleanText // what the server's middleware does to every text
	defs := toolerr.Default().Defs()
	require.NotEmpty(t, defs)
	for _, d := range defs {
		t.Run(d.Code, func(t *testing.T) {
			served := richError(d).MapText(clean)
			var texts []string
			for _, rd := range renderings {
				srv := problem
				if rd.envelope {
					srv = envelope
				}
				req, err := http.NewRequest(http.MethodPost, srv.URL+"/tools/"+d.Code, strings.NewReader(`{"limit":500}`))
				require.NoError(t, err)
				req.Header.Set("Accept", rd.accept)
				req.Header.Set("X-Request-Id", "req-"+d.Code)
				resp, err := http.DefaultClient.Do(req)
				require.NoError(t, err)
				res, err := FromResponse(resp)
				require.NoError(t, err)
				require.True(t, res.IsError, rd.name)
				require.NotNil(t, res.Err, rd.name)

				id := resp.Header.Get("X-Request-Id")
				require.Equal(t, "req-"+d.Code, id)
				want := actedOnOf(t, served.WithRequestID(id))
				assert.Equal(t, want, actedOnOf(t, res.Err), "%s: the acted-on members", rd.name)
				assert.Equal(t, id, res.Err.RequestID, "%s: X-Request-Id agrees", rd.name)
				assert.Equal(t, resp.StatusCode, res.Err.Status, rd.name)
				assert.Equal(t, d.Title, res.Err.Title, "%s: the registry's title", rd.name)
				assert.Equal(t, d.Severity, res.Err.Severity, rd.name)
				require.NoError(t, toolerr.Validate(res.Err.AppendJSON(nil)), rd.name)
				assert.Equal(t, res.Err.Observation(), res.Text, rd.name)
				assert.Equal(t, 1, strings.Count(res.Text, d.Code+" ("), "%s: the code line once: %s", rd.name, res.Text)
				texts = append(texts, res.Text)
			}
			for i := 1; i < len(texts); i++ {
				assert.Equal(t, texts[0], texts[i], "the same text from %s and %s", renderings[0].name, renderings[i].name)
			}
		})
	}
}

func TestFromResponseTextIsTheServersObservation(t *testing.T) {
	problem, _ := codeServers(t)
	for _, code := range []string{toolerr.CodeValidationFailed, toolerr.CodeRateLimited, toolerr.CodeNotFound} {
		req, err := http.NewRequest(http.MethodPost, problem.URL+"/tools/"+code, nil)
		require.NoError(t, err)
		req.Header.Set("Accept", "text/plain")
		resp, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		body := new(bytes.Buffer)
		_, err = body.ReadFrom(resp.Body)
		require.NoError(t, err)
		_ = resp.Body.Close()

		e, ok := ParseObservation(body.String())
		require.True(t, ok, body.String())
		assert.Equal(t, body.String(), e.Observation(), "re-rendered, toolerr's own text/plain is the text it sent")
	}
}
