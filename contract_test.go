package toolerr

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestEveryDefaultCodeRoundTrips renders every built-in code both ways,
// validates each rendering, and parses it back to the same bytes.
func TestEveryDefaultCodeRoundTrips(t *testing.T) {
	defs := Default().Defs()
	require.Len(t, defs, 32)
	for _, d := range defs {
		t.Run(d.Code, func(t *testing.T) {
			e := Default().New(d.Code, "").WithRequestID("req-1")
			assert.Equal(t, d.Category, e.Category)
			assert.Equal(t, d.Status, e.Status)
			assert.NotEmpty(t, d.Cause)
			for name, render := range map[string]func([]byte) []byte{"problem": e.AppendJSON, "envelope": e.AppendEnvelope} {
				body := render(nil)
				require.NoError(t, Validate(body), "%s: %s", name, body)
				back, err := Parse(body)
				require.NoError(t, err, name)
				assert.Equal(t, string(body), string(render2(back, name)), "%s round trip", name)
			}
		})
	}
}

func render2(e *Error, name string) []byte {
	if name == "envelope" {
		return e.AppendEnvelope(nil)
	}
	return e.AppendJSON(nil)
}

func TestRegisterRejects(t *testing.T) {
	valid := Def{Code: "WIDGET_MISSING", Category: CategoryNotFound, Status: 404, Title: "t", Hint: "h", HumanHint: "hh"}
	with := func(f func(*Def)) Def { d := valid; f(&d); return d }
	tests := []struct {
		name string
		defs []Def
		want string
	}{
		{"parent code", []Def{with(func(d *Def) { d.Code = CodeNotFound })}, "already registered"},
		{"twice", []Def{valid, valid}, "defined twice"},
		{"lower case", []Def{with(func(d *Def) { d.Code = "widget" })}, "SCREAMING_SNAKE"},
		{"double underscore", []Def{with(func(d *Def) { d.Code = "A__B" })}, "SCREAMING_SNAKE"},
		{"category", []Def{with(func(d *Def) { d.Category = "oops" })}, "unknown category"},
		{"status", []Def{with(func(d *Def) { d.Status = 200 })}, "not an error status"},
		{"retryable category", []Def{with(func(d *Def) { d.Retryable = true })}, "cannot be retryable"},
		{"retryable without policy", []Def{with(func(d *Def) { d.Category, d.Retryable = CategoryTransient, true })}, "retry strategy"},
		{"rate limit needs retry_after", []Def{with(func(d *Def) {
			d.Category, d.Retryable, d.Retry = CategoryRateLimit, true, RetryPolicy{Strategy: StrategyExponential, BaseDelay: time.Second, MaxAttempts: 3}
		})}, "retry_after strategy"},
		{"hint", []Def{with(func(d *Def) { d.Hint = " " })}, "hint is required"},
		{"action", []Def{with(func(d *Def) { d.Actions = []string{"reboot"} })}, "unknown action"},
		{"deprecated without replacement", []Def{with(func(d *Def) { d.Stability, d.Removal = Deprecated, "2027-01-01" })}, "registered replacement"},
		{"deprecated bad date", []Def{with(func(d *Def) { d.Stability, d.Replacement, d.Removal = Deprecated, CodeNotFound, "soon" })}, "removal date"},
		{"stable with replacement", []Def{with(func(d *Def) { d.Replacement = CodeNotFound })}, "only deprecated"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := NewRegistry(Default())
			err := reg.Register(append(tc.defs, Def{Code: "OTHER_OK", Category: CategoryConflict, Status: 409, Title: "t", Hint: "h", HumanHint: "hh"})...)
			require.ErrorContains(t, err, tc.want)
			_, ok := reg.Lookup("OTHER_OK")
			assert.False(t, ok, "a failed batch registers nothing")
		})
	}
	require.ErrorIs(t, Default().Register(valid), errSealed)
	reg := NewRegistry(Default())
	require.NoError(t, reg.Register(valid, with(func(d *Def) {
		d.Code, d.Stability, d.Replacement, d.Removal = "OLD_WIDGET_MISSING", Deprecated, "WIDGET_MISSING", "2027-06-30"
	})), "a replacement in the same batch counts")
}

func TestNewUnknownCodeIsInternal(t *testing.T) {
	e := Default().New("NO_SUCH_CODE", "")
	assert.Equal(t, CodeInternal, e.Code)
	assert.ErrorContains(t, e.Unwrap(), "NO_SUCH_CODE")
	assert.NotContains(t, string(e.WithRequestID("r").AppendJSON(nil)), "NO_SUCH_CODE")
}

func TestRegisteredDefinitionCannotBeChanged(t *testing.T) {
	e := Default().New(CodeValidationFailed, "")
	e.Suggestions[0] = "changed"
	_ = e.WithHint("other")
	d, _ := Default().Lookup(CodeValidationFailed)
	d.Repair[0] = "changed too"
	again := Default().New(CodeValidationFailed, "")
	assert.NotEqual(t, "changed", again.Suggestions[0])
	assert.NotEqual(t, "changed too", again.Suggestions[0])
}

func TestWithReturnsCopies(t *testing.T) {
	base := Default().New(CodeNotFound, "x")
	steps := []string{"a"}
	changed := base.WithDetail("y").WithSuggestions(steps...).WithDetails(map[string]any{"k": 1}).WithRetryable(true)
	steps[0] = "mutated"
	assert.Equal(t, "x", base.Detail)
	assert.False(t, base.Retryable)
	assert.Nil(t, base.Details)
	assert.Equal(t, []string{"a"}, changed.Suggestions)
	assert.True(t, errors.Is(changed, &Error{Code: CodeNotFound}))
	assert.False(t, errors.Is(changed, &Error{Code: CodeGone}))
	var nilErr *Error
	assert.Nil(t, nilErr.WithDetail("x"))
}

func TestWriteHeadersAndNegotiation(t *testing.T) {
	e := Default().New(CodeRateLimited, "").WithRetryAfter(1500 * time.Millisecond)
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodPost, "/tools/x", nil)
	Write(rec, req, e, WithFormat(FormatEnvelope))
	assert.Equal(t, 429, rec.Code)
	assert.Equal(t, ContentTypeEnvelope, rec.Header().Get("Content-Type"))
	assert.Equal(t, "2", rec.Header().Get("Retry-After"), "whole seconds, rounded up")
	assert.Equal(t, "no-store", rec.Header().Get("Cache-Control"))
	assert.Len(t, rec.Header().Get("X-Request-Id"), 32)
	require.NoError(t, Validate(rec.Body.Bytes()))
	var env struct {
		OK    bool            `json:"ok"`
		Error json.RawMessage `json:"error"`
	}
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &env))
	assert.False(t, env.OK)
	assert.Contains(t, string(env.Error), `"retry_after_ms":1500`)

	rec = httptest.NewRecorder()
	req.Header.Set("Accept", "application/json, application/problem+json")
	Write(rec, req, e, WithFormat(FormatEnvelope))
	assert.Equal(t, ContentTypeProblem, rec.Header().Get("Content-Type"), "an explicit problem+json Accept wins")
}

func TestWriteNeverRendersForeignErrorText(t *testing.T) {
	rec := httptest.NewRecorder()
	req := httptest.NewRequest(http.MethodGet, "/tools/x", nil)
	req = req.WithContext(WithRequestID(req.Context(), "bad id\r\nX-Evil: 1"))
	Write(rec, req, errors.New("pq: password=hunter2 host=10.0.0.5"))
	body := rec.Body.String()
	assert.Equal(t, 500, rec.Code)
	assert.Contains(t, body, `"code":"INTERNAL_ERROR"`)
	for _, leak := range []string{"hunter2", "10.0.0.5", "X-Evil"} {
		assert.NotContains(t, body, leak)
		assert.NotContains(t, rec.Header().Get("X-Request-Id"), leak)
	}
	require.NoError(t, Validate(rec.Body.Bytes()))
}

func TestValidateReportsEveryProblem(t *testing.T) {
	body := []byte(`{"type":"t","title":"t","status":200,"detail":"d","code":"bad","category":"validation",
		"severity":"error","retryable":true,"request_id":"r","bogus":1,"trace_id":"00000000000000000000000000000000"}`)
	err := Validate(body)
	require.Error(t, err)
	joined, ok := err.(interface{ Unwrap() []error })
	require.True(t, ok)
	assert.Len(t, joined.Unwrap(), 5, "%v", err)
	for _, want := range []string{"status", "code", "bogus", "trace_id", "cannot be retried"} {
		assert.True(t, strings.Contains(err.Error(), want), "missing %q in %v", want, err)
	}
	assert.Error(t, Validate([]byte(`{"ok":true,"error":{}}`)))
	assert.Error(t, Validate([]byte(`[1]`)))
}

func TestAppendStringMatchesEncodingJSON(t *testing.T) {
	for _, s := range []string{"plain", "quote\" back\\slash", "\x00\x1f\x7f", "<script>&", "\u2028\u2029", "bad \xff\xfe utf8", "é😀", "\xed\xa0\x80"} {
		want, err := json.Marshal(s)
		require.NoError(t, err)
		assert.Equal(t, string(want), string(appendString(nil, s, 0)), "%q", s)
	}
}

func TestWriteRequestIDPrecedence(t *testing.T) {
	tests := []struct {
		name, own, ctx, header, want string
	}{
		{"the request's id first", "own-1", "ctx-1", "hdr-1", "ctx-1"},
		{"error's own without one", "own-1", "", "hdr-1", "own-1"},
		{"context before header", "", "ctx-1", "hdr-1", "ctx-1"},
		{"invalid own falls to context", "bad id", "ctx-1", "", "ctx-1"},
		{"header last", "", "", "hdr-1", "hdr-1"},
		{"invalid everywhere is generated", "a b", "c\nd", "\"e\"", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			rec := httptest.NewRecorder()
			rec.Header().Set("X-Request-Id", tc.header)
			req := httptest.NewRequest(http.MethodGet, "/", nil)
			req = req.WithContext(WithRequestID(req.Context(), tc.ctx))
			Write(rec, req, Default().New(CodeNotFound, "").WithRequestID(tc.own))
			got := rec.Header().Get("X-Request-Id")
			if tc.want == "" {
				assert.Len(t, got, 32)
				assert.True(t, ValidRequestID(got))
			} else {
				assert.Equal(t, tc.want, got)
			}
			e, err := Parse(rec.Body.Bytes())
			require.NoError(t, err)
			assert.Equal(t, got, e.RequestID, "body and header agree")
		})
	}
}
