package toolerr

import (
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// geocoderRegistry declares the example: a backup geocoder for
// transient, rate-limit and upstream failures, a mutating cache writer for
// the same, and a broader search for not_found.
func geocoderRegistry(t *testing.T) *Registry {
	t.Helper()
	r := NewRegistry(Default())
	require.NoError(t, r.DeclareFallbacks("geocode",
		Fallback{Tool: "geocode_backup", On: []Category{CategoryTransient, CategoryRateLimit, CategoryUpstream}},
		Fallback{Tool: "queue_geocode", On: []Category{CategoryTransient, CategoryAuth, CategoryUpstream}, Mutates: true},
		Fallback{Tool: "search_places", On: []Category{CategoryNotFound, CategoryAuth}},
	))
	return r
}

func TestDeclareFallbacksValidates(t *testing.T) {
	r := NewRegistry(Default())
	err := r.DeclareFallbacks("geo code",
		Fallback{Tool: "geo code", On: []Category{CategoryTransient}},
		Fallback{Tool: "b\"ad", On: []Category{CategoryTransient}},
		Fallback{Tool: "backup"},
		Fallback{Tool: "backup", On: []Category{"flaky"}},
	)
	require.Error(t, err)
	for _, want := range []string{"tool name cannot be named", `fallback "b\"ad": the name`, `"backup": no categories`, `"backup": declared twice`, `unknown category "flaky"`} {
		assert.Contains(t, err.Error(), want)
	}
	assert.Contains(t, r.DeclareFallbacks("geo", Fallback{Tool: "geo", On: []Category{CategoryTransient}}).Error(), "its own fallback")
	many := make([]Fallback, maxFallbacks+1)
	for i := range many {
		many[i] = Fallback{Tool: fmt.Sprintf("f%d", i), On: []Category{CategoryTransient}}
	}
	assert.ErrorContains(t, r.DeclareFallbacks("geo", many...), "more than 8")
	assert.Nil(t, r.Fallbacks("geo"), "a rejected declaration declares nothing")
	assert.Nil(t, r.Fallbacks("geo code"))
}

func TestDeclareFallbacksSealedDefault(t *testing.T) {
	err := Default().DeclareFallbacks("geocode", Fallback{Tool: "backup", On: []Category{CategoryTransient}})
	require.ErrorIs(t, err, ErrSealed)
	assert.Contains(t, err.Error(), "NewRegistry(toolerr.Default())")
	assert.Nil(t, Default().Fallbacks("geocode"))
	require.ErrorIs(t, Default().Register(Def{Code: "X"}), ErrSealed, "Register's error matches too")
}

func TestDeclareFallbacksReplacesAndChildrenSeeParents(t *testing.T) {
	parent := NewRegistry(Default())
	require.NoError(t, parent.DeclareFallbacks("geocode", Fallback{Tool: "a", On: []Category{CategoryTransient}}))
	require.NoError(t, parent.DeclareFallbacks("geocode", Fallback{Tool: "b", On: []Category{CategoryNotFound}}))
	assert.Equal(t, []Fallback{{Tool: "b", On: []Category{CategoryNotFound}}}, parent.Fallbacks("geocode"))

	child := NewRegistry(parent)
	assert.Equal(t, parent.Fallbacks("geocode"), child.Fallbacks("geocode"))
	require.NoError(t, child.DeclareFallbacks("geocode", Fallback{Tool: "c", On: []Category{CategoryUpstream}, Mutates: true}))
	assert.Equal(t, []Fallback{{Tool: "c", On: []Category{CategoryUpstream}, Mutates: true}}, child.Fallbacks("geocode"))
	assert.Equal(t, "b", parent.Fallbacks("geocode")[0].Tool, "the child's declaration stays in the child")
	assert.Equal(t, map[string][]Fallback{"geocode": {{Tool: "c", On: []Category{CategoryUpstream}, Mutates: true}}},
		child.DeclaredFallbacks(), "the child's declaration hides the parent's")
	require.NoError(t, child.DeclareFallbacks("geocode"))
	assert.Equal(t, "b", child.Fallbacks("geocode")[0].Tool, "declaring none shows the parent's again")
	assert.Equal(t, map[string][]Fallback{"geocode": {{Tool: "b", On: []Category{CategoryNotFound}}}}, child.DeclaredFallbacks())
}

// TestDeclaredFallbacks: every tool's declaration, the parents' included,
// as copies; nil when none is declared.
func TestDeclaredFallbacks(t *testing.T) {
	assert.Nil(t, NewRegistry(Default()).DeclaredFallbacks())
	parent := NewRegistry(Default())
	require.NoError(t, parent.DeclareFallbacks("route", Fallback{Tool: "route_backup", On: []Category{CategoryTransient}}))
	child := NewRegistry(parent)
	require.NoError(t, child.DeclareFallbacks("geocode", Fallback{Tool: "geocode_backup", On: []Category{CategoryUpstream}}))
	got := child.DeclaredFallbacks()
	assert.Equal(t, map[string][]Fallback{
		"route":   {{Tool: "route_backup", On: []Category{CategoryTransient}}},
		"geocode": {{Tool: "geocode_backup", On: []Category{CategoryUpstream}}},
	}, got)
	got["route"][0].On[0] = CategoryAuth
	assert.Equal(t, CategoryTransient, child.DeclaredFallbacks()["route"][0].On[0], "a copy")
	assert.Len(t, parent.DeclaredFallbacks(), 1, "a child's declarations stay in the child")
}

func TestDeclareFallbacksKeepsItsOwnCopy(t *testing.T) {
	r := NewRegistry(Default())
	on := []Category{CategoryTransient}
	require.NoError(t, r.DeclareFallbacks("geocode", Fallback{Tool: "backup", On: on}))
	on[0] = CategoryPolicy
	got := r.Fallbacks("geocode")
	assert.Equal(t, CategoryTransient, got[0].On[0])
	got[0].On[0] = CategoryAuth
	assert.Equal(t, CategoryTransient, r.Fallbacks("geocode")[0].On[0])
}

func TestDeclareFallbacksConcurrent(t *testing.T) {
	r := NewRegistry(Default())
	var wg sync.WaitGroup
	for i := range 16 {
		wg.Go(func() {
			tool := fmt.Sprintf("tool%d", i)
			assert.NoError(t, r.DeclareFallbacks(tool, Fallback{Tool: "backup", On: []Category{CategoryTransient}}))
			e := r.New(CodeUpstreamUnavailable, "").WithTool(tool)
			assert.Equal(t, []string{"backup"}, FallbackTools(r.OfferFallbacks(e, FallbackCall{})))
		})
	}
	wg.Wait()
	assert.Len(t, r.DeclaredFallbacks(), 16)
}

func TestOfferFallbacksByCategory(t *testing.T) {
	r := geocoderRegistry(t)
	e := r.New(CodeUpstreamUnavailable, "").WithTool("geocode").WithActions(ActionReadStateFirst)
	got := r.OfferFallbacks(e, FallbackCall{})
	assert.Equal(t, []string{ActionReadStateFirst, "use_fallback:geocode_backup", "use_fallback:queue_geocode"}, got.Actions)
	assert.True(t, strings.HasPrefix(got.Hint, e.Hint), "the code's hint is kept")
	assert.True(t, strings.HasSuffix(got.Hint, " If it keeps failing, call geocode_backup or queue_geocode instead."), got.Hint)
	assert.Equal(t, []string{ActionReadStateFirst}, e.Actions, "e is not changed")
	assert.Equal(t, []string{"geocode_backup", "queue_geocode"}, FallbackTools(fmt.Errorf("call: %w", got)))

	nf := r.OfferFallbacks(r.New(CodeNotFound, "").WithTool("geocode"), FallbackCall{Mutating: true})
	assert.Equal(t, []string{"use_fallback:search_places"}, nf.Actions)
	assert.True(t, strings.HasSuffix(nf.Hint, " Alternatively, call search_places."), nf.Hint)

	again := r.OfferFallbacks(got, FallbackCall{})
	assert.Same(t, got, again, "offering twice adds nothing")
}

func TestOfferFallbacksReturnsSameErrorWhenNothingApplies(t *testing.T) {
	r := geocoderRegistry(t)
	for name, e := range map[string]*Error{
		"undeclared tool":   r.New(CodeUpstreamUnavailable, "").WithTool("route"),
		"no tool":           r.New(CodeUpstreamUnavailable, ""),
		"uncovered":         r.New(CodeValidationFailed, "").WithTool("geocode"),
		"repeated unknown":  {Code: CodeRepeatedFailure, Tool: "geocode", Details: map[string]any{"repeated_code": "NOPE"}},
		"repeated no cause": {Code: CodeRepeatedFailure, Tool: "geocode"},
	} {
		assert.Same(t, e, r.OfferFallbacks(e, FallbackCall{}), name)
	}
	assert.Nil(t, r.OfferFallbacks(nil, FallbackCall{}))
	e := r.New(CodeValidationFailed, "").WithTool("geocode")
	assert.Zero(t, testing.AllocsPerRun(100, func() { _ = r.OfferFallbacks(e, FallbackCall{Mutating: true}) }))
}

func TestOfferFallbacksGuardsMutatingAfterRefusals(t *testing.T) {
	r := geocoderRegistry(t)
	for _, code := range []string{CodeUnauthenticated} {
		got := r.OfferFallbacks(r.New(code, "").WithTool("geocode"), FallbackCall{})
		assert.Equal(t, []string{"search_places"}, FallbackTools(got), "queue_geocode mutates: never after auth")
		assert.Contains(t, got.Actions, ActionRefreshAuth, "the code's own actions are kept")
		assert.NotContains(t, got.Hint, "queue_geocode")
	}
	for _, cat := range []Category{CategoryPermission, CategoryPolicy} {
		rr := NewRegistry(Default())
		require.NoError(t, rr.DeclareFallbacks("pay",
			Fallback{Tool: "pay_manual", On: []Category{cat}, Mutates: true},
			Fallback{Tool: "read_account", On: []Category{cat}}))
		code := CodePermissionDenied
		if cat == CategoryPolicy {
			code = CodePolicyBlocked
		}
		got := rr.OfferFallbacks(rr.New(code, "").WithTool("pay"), FallbackCall{})
		assert.Equal(t, []string{"read_account"}, FallbackTools(got), cat)
	}
}

func TestOfferFallbacksGuardsMutatingAfterUnknownOutcome(t *testing.T) {
	r := NewRegistry(Default())
	require.NoError(t, r.DeclareFallbacks("charge",
		Fallback{Tool: "charge_backup", On: []Category{CategoryTransient, CategoryUpstream}, Mutates: true},
		Fallback{Tool: "charge_status", On: []Category{CategoryTransient, CategoryUpstream}}))
	post, keyed, get := FallbackCall{Mutating: true}, FallbackCall{Mutating: true, Idempotent: true}, FallbackCall{}
	timeout := r.New(CodeUpstreamTimeout, "").WithTool("charge")
	dropped := r.New(CodeUpstreamUnavailable, "").WithTool("charge").WithRetryable(false) // may have run
	refused := r.New(CodeUpstreamUnavailable, "").WithTool("charge")                      // never sent: retryable
	interrupted := r.New(CodeUpstreamUnclassified, "").WithTool("charge").WithIntent(Intent{Operation: "charge", State: "submitted"})
	toolTimeout := r.New(CodeToolTimeout, "").WithTool("charge")
	both := []string{"charge_backup", "charge_status"}
	for name, e := range map[string]*Error{"timeout": timeout, "dropped": dropped, "interrupted": interrupted, "tool timeout": toolTimeout} {
		assert.Equal(t, []string{"charge_status"}, FallbackTools(r.OfferFallbacks(e, post)), name+": a POST without key")
		assert.Equal(t, both, FallbackTools(r.OfferFallbacks(e, keyed)), name+": a POST with a key")
		assert.Equal(t, both, FallbackTools(r.OfferFallbacks(e, get)), name+": a GET")
	}
	assert.Equal(t, both, FallbackTools(r.OfferFallbacks(refused, post)), "a retryable failure was not sent")
	assert.Equal(t, both, FallbackTools(r.OfferFallbacks(r.New(CodeUpstreamMisconfigured, "").WithTool("charge"), post)),
		"an upstream failure that is never retryable is no unknown outcome")
}

func TestOfferFallbacksRepeatedFailureUsesRepeatedCategory(t *testing.T) {
	r := geocoderRegistry(t)
	refusal := func(code string) *Error { // the thrash guard's refusal, built in
		return r.New(CodeRepeatedFailure, "").WithTool("geocode").WithDetails(map[string]any{"repeated_code": code})
	}
	got := r.OfferFallbacks(refusal(CodeUpstreamMisconfigured), FallbackCall{})
	assert.Equal(t, []string{"use_fallback:geocode_backup", "use_fallback:queue_geocode"}, got.Actions,
		"its own policy category neither selects nor guards: the repeated upstream failure does")
	assert.True(t, strings.HasPrefix(got.Hint, "Do not repeat this call"), got.Hint)
	assert.Contains(t, got.Hint, "Alternatively, call geocode_backup or queue_geocode.")

	assert.Equal(t, []string{"search_places"}, FallbackTools(r.OfferFallbacks(refusal(CodeNotFound), FallbackCall{})))
	assert.Equal(t, []string{"search_places"}, FallbackTools(r.OfferFallbacks(refusal(CodeUnauthenticated), FallbackCall{})),
		"a repeated auth failure keeps the mutating fallback out")
	assert.Equal(t, []string{"geocode_backup"}, FallbackTools(r.OfferFallbacks(refusal(CodeUpstreamTimeout), FallbackCall{Mutating: true})),
		"a repeated timeout of a keyless write keeps it out too")
	assert.Equal(t, []string{"geocode_backup"}, FallbackTools(r.OfferFallbacks(refusal(CodeUpstreamUnavailable), FallbackCall{Mutating: true})),
		"a retryable code that was repeated was one that may have run")
}

func TestOfferFallbacksHintWording(t *testing.T) {
	assert.Equal(t, "Call X or Y. Alternatively, call a, b or c.", withFallbackSentence("Call X or Y", []string{"a", "b", "c"}, false))
	assert.Equal(t, "If it keeps failing, call a instead.", withFallbackSentence(" ", []string{"a"}, true))
	assert.Equal(t, "Wait? If it keeps failing, call a or b instead.", withFallbackSentence("Wait?", []string{"a", "b"}, true))

	// The worded hint (here, the one for an error with a field) is the
	// one kept, not the code's bare default.
	r := NewRegistry(Default())
	require.NoError(t, r.DeclareFallbacks("lookup", Fallback{Tool: "search", On: []Category{CategoryValidation}}))
	e := r.New(CodeValidationFailed, "").WithTool("lookup").WithField("id")
	worded, _, _ := e.RenderedHints()
	got := r.OfferFallbacks(e, FallbackCall{})
	hint, _, _ := got.RenderedHints()
	assert.Equal(t, worded+" Alternatively, call search.", hint)
}

func TestFallbackToolsWithoutError(t *testing.T) {
	assert.Nil(t, FallbackTools(nil))
	assert.Nil(t, FallbackTools(errors.New("plain")))
	assert.Nil(t, FallbackTools(Default().New(CodeNotFound, "")))
}
