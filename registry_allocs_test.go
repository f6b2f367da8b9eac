package toolerr

import (
	"errors"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestNewCauseIsOneAllocation: NewCause's error of a retryable code with
// up to two repair steps is one allocation; its retry policy and steps
// are stored with it, and still belong to it alone.
func TestNewCauseIsOneAllocation(t *testing.T) {
	reg := NewRegistry(nil)
	require.NoError(t, reg.Register(Def{
		Code: "WIDGET_BUSY", Category: CategoryRateLimit, Status: 429, Retryable: true,
		Title: "t", Hint: "h", HumanHint: "hh", Repair: []string{"Wait.", "Retry."},
		Retry: RetryPolicy{Strategy: StrategyRetryAfter, BaseDelay: time.Second, MaxAttempts: 3},
	}, Def{
		Code: "WIDGET_STEPS", Category: CategoryValidation, Status: 400,
		Title: "t", Hint: "h", HumanHint: "hh", Repair: []string{"One.", "Two.", "Three."},
	}))
	cause := errors.New("busy")
	var e *Error
	assert.Equal(t, 1.0, testing.AllocsPerRun(100, func() { e = reg.NewCause("WIDGET_BUSY", "", cause) }))
	assert.Equal(t, []string{"Wait.", "Retry."}, e.Suggestions)
	assert.Equal(t, RetryPolicy{Strategy: StrategyRetryAfter, BaseDelay: time.Second, MaxAttempts: 3}, *e.RetryPolicy)
	assert.Equal(t, time.Second, e.RetryAfter)
	assert.ErrorIs(t, e, cause)
	assert.Equal(t, reg.New("WIDGET_BUSY", "").WithCause(cause).AppendJSON(nil), e.AppendJSON(nil), "as New then WithCause")

	grown := append(e.Suggestions, "Then give up.")
	grown[0] = "changed"
	assert.Equal(t, "Wait.", e.Suggestions[0], "an append copies the steps out of the error")
	e.Suggestions[1] = "changed"
	e.RetryPolicy.MaxAttempts = 9
	again := reg.NewCause("WIDGET_BUSY", "", nil)
	assert.Equal(t, "Retry.", again.Suggestions[1], "not the definition's steps")
	assert.Equal(t, 3, again.RetryPolicy.MaxAttempts, "not the definition's policy")

	three := reg.NewCause("WIDGET_STEPS", "", nil)
	assert.Equal(t, []string{"One.", "Two.", "Three."}, three.Suggestions)
	three.Suggestions[2] = "changed"
	assert.Equal(t, "Three.", reg.NewCause("WIDGET_STEPS", "", nil).Suggestions[2])

	unknown := reg.NewCause("NO_SUCH_CODE", "", cause)
	assert.Equal(t, CodeInternal, unknown.Code)
	assert.ErrorIs(t, unknown, cause)
}

// TestNewCauseWithoutRepairHasNilSuggestions: a definition without repair
// steps gives NewCause's error nil suggestions, as it gives New's.
func TestNewCauseWithoutRepairHasNilSuggestions(t *testing.T) {
	reg := NewRegistry(nil)
	require.NoError(t, reg.Register(Def{
		Code: "WIDGET_GONE", Category: CategoryNotFound, Status: 404,
		Title: "t", Hint: "h", HumanHint: "hh",
	}))
	assert.Nil(t, reg.New("WIDGET_GONE", "").Suggestions)
	assert.Nil(t, reg.NewCause("WIDGET_GONE", "", nil).Suggestions)
}
