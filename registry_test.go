package toolerr

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// builtinCodes is every Code… constant of builtin.go.
var builtinCodes = []string{
	CodeValidationFailed, CodeNotFound, CodeGone, CodeUnauthenticated, CodePermissionDenied,
	CodePreconditionFailed, CodeConflict, CodeRateLimited, CodeQuotaExhausted, CodePaymentRequired,
	CodePayloadTooLarge, CodeUpstreamTimeout, CodeUpstreamUnavailable, CodeUpstreamMisconfigured,
	CodeUpstreamUnclassified, CodeNotImplemented, CodePolicyBlocked, CodeInternal, CodeCancelled,
	CodePartialFailure, CodeIdempotencyKeyMissing, CodeIdempotencyKeyReused, CodeIdempotencyInProgress,
	CodeIdempotencyUnavailable, CodeDuplicateAction, CodeRepeatedFailure, CodeCircuitOpen, CodeRetryBudgetExhausted,
	CodeToolNotFound, CodeMethodNotAllowed, CodeToolTimeout, CodeToolUnavailable,
}

func TestDefaultRegistersEveryBuiltinCode(t *testing.T) {
	require.Len(t, builtinCodes, 32)
	defs := Default().Defs()
	require.Len(t, defs, 32, "exactly the built-in codes")
	got := make([]string, 0, len(defs))
	for _, d := range defs {
		got = append(got, d.Code)
	}
	want := slices.Clone(builtinCodes)
	slices.Sort(want)
	assert.Equal(t, want, got)

	for _, code := range builtinCodes {
		t.Run(code, func(t *testing.T) {
			d, ok := Default().Lookup(code)
			require.True(t, ok)
			assert.Equal(t, code, d.Code)
			assert.True(t, ValidCode(d.Code))
			assert.True(t, d.Category.Valid(), "category %q", d.Category)
			assert.True(t, d.Severity.Valid(), "severity %q", d.Severity)
			assert.GreaterOrEqual(t, d.Status, 400)
			assert.LessOrEqual(t, d.Status, 599)
			assert.NotEmpty(t, strings.TrimSpace(d.Title))
			assert.NotEmpty(t, strings.TrimSpace(d.Hint))
			assert.NotEmpty(t, strings.TrimSpace(d.HumanHint))
			assert.NotEmpty(t, strings.TrimSpace(d.Cause))
			assert.Equal(t, Stable, d.Stability)
			if d.Retryable {
				assert.True(t, d.Category.CanRetry())
				assert.GreaterOrEqual(t, d.Retry.MaxAttempts, 2)
				assert.Positive(t, d.Retry.BaseDelay)
			}
			for _, a := range d.Actions {
				assert.True(t, ValidAction(a), "%q", a)
			}
			for _, r := range d.Related {
				_, ok := Default().Lookup(r)
				assert.True(t, ok, "related %s is registered", r)
			}
			// The built-in table registers cleanly in a fresh registry.
			assert.NoError(t, d.validate(func(c string) bool { _, ok := Default().Lookup(c); return ok }))

			cat, retryable, ok := Default().Kind(code)
			require.True(t, ok)
			assert.Equal(t, d.Category, cat)
			assert.Equal(t, d.Retryable, retryable)
		})
	}
	_, _, ok := Default().Kind("NO_SUCH_CODE")
	assert.False(t, ok)
}

func TestBuiltinTableRegistersWithoutError(t *testing.T) {
	assert.NoError(t, NewRegistry(nil).Register(builtinDefs()...))
}

func TestBuiltinSpotChecks(t *testing.T) {
	tests := []struct {
		code      string
		category  Category
		severity  Severity
		status    int
		retryable bool
	}{
		{CodeValidationFailed, CategoryValidation, SeverityError, 400, false},
		{CodeGone, CategoryNotFound, SeverityFatal, 410, false},
		{CodeRateLimited, CategoryRateLimit, SeverityError, 429, true},
		{CodeQuotaExhausted, CategoryRateLimit, SeverityFatal, 429, false},
		{CodeInternal, CategoryInternal, SeverityError, 500, false},
		{CodeCancelled, CategoryCancelled, SeverityInfo, 499, false},
		{CodePartialFailure, CategoryConflict, SeverityWarning, 409, false},
		{CodeUpstreamTimeout, CategoryTransient, SeverityError, 504, true},
	}
	for _, tc := range tests {
		e := Default().New(tc.code, "")
		assert.Equal(t, tc.category, e.Category, tc.code)
		assert.Equal(t, tc.severity, e.Severity, tc.code)
		assert.Equal(t, tc.status, e.Status, tc.code)
		assert.Equal(t, tc.retryable, e.Retryable, tc.code)
	}
}

func TestDefaultIsSealed(t *testing.T) {
	err := Default().Register(Def{Code: "WIDGET_MISSING", Category: CategoryNotFound, Status: 404, Title: "t", Hint: "h", HumanHint: "hh"})
	require.ErrorIs(t, err, errSealed)
	assert.Contains(t, err.Error(), "sealed")
	_, ok := Default().Lookup("WIDGET_MISSING")
	assert.False(t, ok)
	assert.Same(t, Default(), Default(), "one default registry")
}

// regValid is a definition that registers cleanly in NewRegistry(Default()).
func regValid() Def {
	return Def{Code: "WIDGET_MISSING", Category: CategoryNotFound, Status: 404,
		Title: "The widget does not exist", Hint: "Look the widget up by name.", HumanHint: "We could not find that widget.",
		Repair: []string{"List widgets.", "Ask the user."}}
}

// regWith returns regValid changed by f.
func regWith(f func(d *Def)) Def {
	d := regValid()
	f(&d)
	return d
}

func TestChildRegistryAcceptsNewCode(t *testing.T) {
	reg := NewRegistry(Default())
	require.NoError(t, reg.Register(regValid()))

	e := reg.New("WIDGET_MISSING", "widget w-7 does not exist")
	assert.Equal(t, "WIDGET_MISSING", e.Code)
	assert.Equal(t, CategoryNotFound, e.Category)
	assert.Equal(t, SeverityError, e.Severity, "severity defaults to error")
	assert.Equal(t, 404, e.Status)
	assert.Equal(t, "widget w-7 does not exist", e.Detail)
	assert.Equal(t, "The widget does not exist", e.Title)
	assert.Equal(t, "Look the widget up by name.", e.Hint)
	assert.Equal(t, "We could not find that widget.", e.HumanHint)
	assert.Equal(t, []string{"List widgets.", "Ask the user."}, e.Suggestions)
	assert.False(t, e.Retryable)
	assert.Nil(t, e.RetryPolicy)

	d, ok := reg.Lookup("WIDGET_MISSING")
	require.True(t, ok)
	assert.Equal(t, Stable, d.Stability, "stability defaults to stable")
	assert.Equal(t, SeverityError, d.Severity)

	// The parent's codes are reachable through the child.
	assert.Equal(t, CodeNotFound, reg.New(CodeNotFound, "").Code)
	// The parent does not see the child's code.
	_, ok = Default().Lookup("WIDGET_MISSING")
	assert.False(t, ok)

	detailDefault := reg.New("WIDGET_MISSING", "")
	assert.Equal(t, "The widget does not exist", detailDefault.Detail, "empty detail is the title")
}

func TestChildRegistryRetryableCode(t *testing.T) {
	reg := NewRegistry(Default())
	require.NoError(t, reg.Register(Def{
		Code: "WIDGET_BUSY", Category: CategoryRateLimit, Status: 429, Retryable: true,
		Title: "t", Hint: "h", HumanHint: "hh",
		Retry: RetryPolicy{Strategy: StrategyRetryAfter, BaseDelay: 2 * time.Second, MaxAttempts: 4},
	}))
	e := reg.New("WIDGET_BUSY", "")
	assert.True(t, e.Retryable)
	require.NotNil(t, e.RetryPolicy)
	assert.Equal(t, RetryPolicy{Strategy: StrategyRetryAfter, BaseDelay: 2 * time.Second, MaxAttempts: 4}, *e.RetryPolicy)
	assert.Equal(t, 2*time.Second, e.RetryAfter, "retry_after codes carry their base delay")

	e.RetryPolicy.MaxAttempts = 99
	again := reg.New("WIDGET_BUSY", "")
	assert.Equal(t, 4, again.RetryPolicy.MaxAttempts, "the policy is a copy")
}

func TestRegisterRejectsEachProblem(t *testing.T) {
	const other = "OTHER_OK"
	tests := []struct {
		name string
		defs []Def
		want string
	}{
		{"code already in the parent", []Def{regWith(func(d *Def) { d.Code = CodeNotFound })}, "NOT_FOUND: already registered"},
		{"code twice in one call", []Def{regValid(), regValid()}, "WIDGET_MISSING: defined twice"},
		{"lower-case code", []Def{regWith(func(d *Def) { d.Code = "widget_missing" })}, "widget_missing: code must be SCREAMING_SNAKE"},
		{"double underscore", []Def{regWith(func(d *Def) { d.Code = "A__B" })}, "A__B: code must be SCREAMING_SNAKE"},
		{"trailing underscore", []Def{regWith(func(d *Def) { d.Code = "WIDGET_" })}, "WIDGET_: code must be SCREAMING_SNAKE"},
		{"empty code", []Def{regWith(func(d *Def) { d.Code = "" })}, "code must be SCREAMING_SNAKE"},
		{"unknown category", []Def{regWith(func(d *Def) { d.Category = "oops" })}, `unknown category "oops"`},
		{"missing category", []Def{regWith(func(d *Def) { d.Category = "" })}, `unknown category ""`},
		{"unknown severity", []Def{regWith(func(d *Def) { d.Severity = "oops" })}, `unknown severity "oops"`},
		{"status 200", []Def{regWith(func(d *Def) { d.Status = 200 })}, "status 200 is not an error status"},
		{"status 399", []Def{regWith(func(d *Def) { d.Status = 399 })}, "status 399 is not an error status"},
		{"status 600", []Def{regWith(func(d *Def) { d.Status = 600 })}, "status 600 is not an error status"},
		{"retryable validation", []Def{regWith(func(d *Def) {
			d.Category, d.Retryable = CategoryValidation, true
			d.Retry = RetryPolicy{Strategy: StrategyExponential, BaseDelay: time.Second, MaxAttempts: 3}
		})}, "category validation cannot be retryable"},
		{"retryable without strategy", []Def{regWith(func(d *Def) {
			d.Category, d.Retryable = CategoryTransient, true
			d.Retry = RetryPolicy{BaseDelay: time.Second, MaxAttempts: 3}
		})}, "a retryable code needs a retry strategy"},
		{"retryable with unknown strategy", []Def{regWith(func(d *Def) {
			d.Category, d.Retryable = CategoryTransient, true
			d.Retry = RetryPolicy{Strategy: "linear", BaseDelay: time.Second, MaxAttempts: 3}
		})}, "a retryable code needs a retry strategy"},
		{"retryable without base delay", []Def{regWith(func(d *Def) {
			d.Category, d.Retryable = CategoryTransient, true
			d.Retry = RetryPolicy{Strategy: StrategyExponential, MaxAttempts: 3}
		})}, "needs a positive base delay"},
		{"retryable with one attempt", []Def{regWith(func(d *Def) {
			d.Category, d.Retryable = CategoryTransient, true
			d.Retry = RetryPolicy{Strategy: StrategyExponential, BaseDelay: time.Second, MaxAttempts: 1}
		})}, "at least 2 attempts"},
		{"retryable rate limit with backoff", []Def{regWith(func(d *Def) {
			d.Category, d.Retryable = CategoryRateLimit, true
			d.Retry = RetryPolicy{Strategy: StrategyExponential, BaseDelay: time.Second, MaxAttempts: 3}
		})}, "needs the retry_after strategy"},
		{"missing title", []Def{regWith(func(d *Def) { d.Title = "" })}, "WIDGET_MISSING: title is required"},
		{"blank title", []Def{regWith(func(d *Def) { d.Title = " \t" })}, "WIDGET_MISSING: title is required"},
		{"missing hint", []Def{regWith(func(d *Def) { d.Hint = "" })}, "WIDGET_MISSING: hint is required"},
		{"missing human hint", []Def{regWith(func(d *Def) { d.HumanHint = "" })}, "WIDGET_MISSING: human hint is required"},
		{"title too long", []Def{regWith(func(d *Def) { d.Title = strings.Repeat("t", MaxTitleLen+1) })}, "title is longer than 128 bytes"},
		{"hint too long", []Def{regWith(func(d *Def) { d.Hint = strings.Repeat("h", MaxHintLen+1) })}, "hints are limited to 512 bytes"},
		{"unknown action", []Def{regWith(func(d *Def) { d.Actions = []string{"reboot"} })}, `unknown action "reboot"`},
		{"bad related code", []Def{regWith(func(d *Def) { d.Related = []string{"not_found"} })}, `related code "not_found" is not SCREAMING_SNAKE`},
		{"deprecated without replacement", []Def{regWith(func(d *Def) {
			d.Stability, d.Removal = Deprecated, "2027-01-01"
		})}, `deprecated code needs a registered replacement, got ""`},
		{"deprecated with unregistered replacement", []Def{regWith(func(d *Def) {
			d.Stability, d.Replacement, d.Removal = Deprecated, "NO_SUCH_CODE", "2027-01-01"
		})}, `deprecated code needs a registered replacement, got "NO_SUCH_CODE"`},
		{"deprecated with bad date", []Def{regWith(func(d *Def) {
			d.Stability, d.Replacement, d.Removal = Deprecated, CodeNotFound, "2027-13-01"
		})}, `removal date YYYY-MM-DD, got "2027-13-01"`},
		{"deprecated without date", []Def{regWith(func(d *Def) {
			d.Stability, d.Replacement = Deprecated, CodeNotFound
		})}, `removal date YYYY-MM-DD, got ""`},
		{"stable with replacement", []Def{regWith(func(d *Def) { d.Replacement = CodeNotFound })}, "only deprecated codes name a replacement or removal date"},
		{"beta with removal", []Def{regWith(func(d *Def) { d.Stability, d.Removal = Beta, "2027-01-01" })}, "only deprecated codes name a replacement or removal date"},
		{"unknown stability", []Def{regWith(func(d *Def) { d.Stability = "experimental" })}, `unknown stability "experimental"`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			reg := NewRegistry(Default())
			batch := append(slices.Clone(tc.defs), Def{Code: other, Category: CategoryConflict, Status: 409, Title: "t", Hint: "h", HumanHint: "hh"})
			err := reg.Register(batch...)
			require.Error(t, err)
			assert.Contains(t, err.Error(), tc.want)
			assert.True(t, strings.HasPrefix(err.Error(), "toolerr: register: "), "%v", err)
			assert.NotContains(t, err.Error(), other+":", "the valid definition is not reported")

			_, ok := reg.Lookup(other)
			assert.False(t, ok, "a failed Register registers none of the batch")
			for _, d := range tc.defs {
				if d.Code == CodeNotFound {
					continue
				}
				_, ok := reg.Lookup(d.Code)
				assert.False(t, ok, "%s must not be registered", d.Code)
			}
			assert.Len(t, reg.Defs(), 32, "only the parent's codes")
		})
	}
}

func TestRegisterReportsEveryProblemAtOnce(t *testing.T) {
	reg := NewRegistry(Default())
	err := reg.Register(Def{Code: "bad", Category: "oops", Status: 200})
	require.Error(t, err)
	for _, want := range []string{"SCREAMING_SNAKE", "unknown category", "not an error status", "title is required", "bad: hint is required", "human hint is required"} {
		assert.Contains(t, err.Error(), want)
	}
}

func TestRegisterDeprecatedCodes(t *testing.T) {
	deprecated := func(code, replacement string) Def {
		return regWith(func(d *Def) {
			d.Code, d.Stability, d.Replacement, d.Removal = code, Deprecated, replacement, "2027-06-30"
		})
	}
	t.Run("replacement in the same batch", func(t *testing.T) {
		reg := NewRegistry(Default())
		require.NoError(t, reg.Register(deprecated("OLD_WIDGET_MISSING", "WIDGET_MISSING"), regValid()))
		d, ok := reg.Lookup("OLD_WIDGET_MISSING")
		require.True(t, ok)
		assert.Equal(t, Deprecated, d.Stability)
		assert.Equal(t, "WIDGET_MISSING", d.Replacement)
		assert.Equal(t, "2027-06-30", d.Removal)
	})
	t.Run("replacement in the parent", func(t *testing.T) {
		reg := NewRegistry(Default())
		require.NoError(t, reg.Register(deprecated("OLD_NOT_FOUND", CodeNotFound)))
	})
	t.Run("replacement registered earlier in the same registry", func(t *testing.T) {
		reg := NewRegistry(Default())
		require.NoError(t, reg.Register(regValid()))
		require.NoError(t, reg.Register(deprecated("OLD_WIDGET_MISSING", "WIDGET_MISSING")))
	})
}

func TestFailedRegisterKeepsEarlierCodes(t *testing.T) {
	reg := NewRegistry(Default())
	require.NoError(t, reg.Register(regValid()))
	err := reg.Register(regWith(func(d *Def) { d.Code = "WIDGET_GONE" }), regWith(func(d *Def) { d.Code = "x" }))
	require.Error(t, err)
	_, ok := reg.Lookup("WIDGET_MISSING")
	assert.True(t, ok, "earlier registrations survive")
	_, ok = reg.Lookup("WIDGET_GONE")
	assert.False(t, ok, "nothing of the failed batch")
	// The same code cannot be registered twice across calls either.
	require.ErrorContains(t, reg.Register(regValid()), "WIDGET_MISSING: already registered")
}

func TestNewUnknownCodeReturnsInternal(t *testing.T) {
	for _, reg := range []*Registry{Default(), NewRegistry(Default()), NewRegistry(nil)} {
		e := reg.New("NO_SUCH_CODE", "order 7 is gone")
		require.NotNil(t, e)
		assert.Equal(t, CodeInternal, e.Code)
		assert.Equal(t, CategoryInternal, e.Category)
		assert.Equal(t, 500, e.Status)
		require.Error(t, e.Unwrap())
		assert.Contains(t, e.Unwrap().Error(), `"NO_SUCH_CODE"`)
		assert.Contains(t, e.Unwrap().Error(), "not registered")
		assert.NotContains(t, e.Detail, "NO_SUCH_CODE")
		assert.NotContains(t, e.Detail, "order 7", "the caller's detail belonged to the unknown code")
		assert.Equal(t, "The tool failed", e.Detail)
		body := string(e.WithRequestID("req-1").AppendJSON(nil))
		assert.NotContains(t, body, "NO_SUCH_CODE")
	}
}

func TestLookupReturnsACopy(t *testing.T) {
	reg := NewRegistry(Default())
	def := regValid()
	require.NoError(t, reg.Register(def))
	def.Repair[0] = "mutated after Register"

	d, ok := reg.Lookup("WIDGET_MISSING")
	require.True(t, ok)
	assert.Equal(t, []string{"List widgets.", "Ask the user."}, d.Repair)
	d.Repair[0] = "mutated"
	d.Repair = append(d.Repair, "appended")
	d.Title = "changed"

	again, _ := reg.Lookup("WIDGET_MISSING")
	assert.Equal(t, []string{"List widgets.", "Ask the user."}, again.Repair)
	assert.Equal(t, "The widget does not exist", again.Title)
	e := reg.New("WIDGET_MISSING", "")
	assert.Equal(t, []string{"List widgets.", "Ask the user."}, e.Suggestions)

	e.Suggestions[0] = "mutated via error"
	assert.Equal(t, "List widgets.", reg.New("WIDGET_MISSING", "").Suggestions[0])

	// Built-in definitions behave the same.
	bd, _ := Default().Lookup(CodeUnauthenticated)
	bd.Actions[0] = "mutated"
	assert.Equal(t, []string{ActionRefreshAuth}, Default().New(CodeUnauthenticated, "").Actions)

	_, ok = reg.Lookup("NO_SUCH_CODE")
	assert.False(t, ok)
}

func TestDefsSortedWithParents(t *testing.T) {
	reg := NewRegistry(Default())
	require.NoError(t, reg.Register(regValid(), regWith(func(d *Def) { d.Code = "AAA_FIRST" })))
	defs := reg.Defs()
	require.Len(t, defs, 34)
	assert.True(t, slices.IsSortedFunc(defs, func(a, b Def) int { return strings.Compare(a.Code, b.Code) }))
	assert.Equal(t, "AAA_FIRST", defs[0].Code)
	codes := make([]string, len(defs))
	for i, d := range defs {
		codes[i] = d.Code
	}
	assert.Contains(t, codes, "WIDGET_MISSING")
	for _, c := range builtinCodes {
		assert.Contains(t, codes, c)
	}
	defs[0].Repair[0] = "mutated"
	assert.Equal(t, "List widgets.", reg.Defs()[0].Repair[0], "Defs returns copies")
}

func TestDocsBase(t *testing.T) {
	based := NewRegistry(Default(), WithDocsBase("https://docs.example.com/errors/"))
	require.NoError(t, based.Register(regValid(), regWith(func(d *Def) {
		d.Code, d.DocsURL = "WIDGET_OWN_DOCS", "https://widgets.example.com/e/own"
	})))
	e := based.New("WIDGET_MISSING", "")
	assert.Equal(t, "https://docs.example.com/errors/WIDGET_MISSING", e.DocsURL)
	assert.Equal(t, "https://docs.example.com/errors/WIDGET_MISSING", e.Type)
	body := string(e.WithRequestID("req-1").AppendJSON(nil))
	assert.Contains(t, body, `"type":"https://docs.example.com/errors/WIDGET_MISSING"`)
	assert.Contains(t, body, `"docs_url":"https://docs.example.com/errors/WIDGET_MISSING"`)

	// The base also applies to the parent's codes built through the child.
	assert.Equal(t, "https://docs.example.com/errors/NOT_FOUND", based.New(CodeNotFound, "").Type)

	own := based.New("WIDGET_OWN_DOCS", "")
	assert.Equal(t, "https://widgets.example.com/e/own", own.DocsURL, "a def's own docs URL wins")
	assert.Equal(t, "https://widgets.example.com/e/own", own.Type)

	noBase := NewRegistry(Default())
	require.NoError(t, noBase.Register(regValid()))
	e2 := noBase.New("WIDGET_MISSING", "")
	assert.Equal(t, "urn:toolerr:WIDGET_MISSING", e2.Type)
	assert.Equal(t, "", e2.DocsURL)
	body2 := string(e2.WithRequestID("req-1").AppendJSON(nil))
	assert.Contains(t, body2, `"type":"urn:toolerr:WIDGET_MISSING"`)
	assert.NotContains(t, body2, "docs_url")
	assert.Equal(t, "urn:toolerr:NOT_FOUND", Default().New(CodeNotFound, "").Type)
}

// NewCause is New followed by WithCause, and a nil cause keeps New's.
func TestNewCauseIsNewWithCause(t *testing.T) {
	r := Default()
	cause := errors.New("downstream said no")
	for _, code := range []string{CodeRateLimited, CodePaymentRequired, "NOT_A_CODE"} {
		assert.Equal(t, r.New(code, "d").WithCause(cause), r.NewCause(code, "d", cause), code)
		assert.Equal(t, r.New(code, "d"), r.NewCause(code, "d", nil), code)
	}
	assert.Same(t, cause, r.NewCause(CodeNotFound, "", cause).Unwrap())
}
