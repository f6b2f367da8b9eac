package toolerr

import (
	"errors"
	"fmt"
	"io"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestErrorText(t *testing.T) {
	tests := []struct {
		name string
		err  *Error
		want string
	}{
		{"code and detail", &Error{Code: "NOT_FOUND", Detail: "order 7 does not exist"}, "NOT_FOUND: order 7 does not exist"},
		{"code only", &Error{Code: "NOT_FOUND"}, "NOT_FOUND"},
		{"from the registry", Default().New(CodeGone, "order 7 was deleted"), "GONE: order 7 was deleted"},
		{"registry default detail is the title", Default().New(CodeGone, ""), "GONE: The resource was deleted"},
		{"nil", nil, "<nil>"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, tc.err.Error())
		})
	}
}

func TestErrorTextNeverIncludesCause(t *testing.T) {
	e := Default().New(CodeInternal, "").WithCause(errors.New("secret-db-password-xyz"))
	assert.Equal(t, "INTERNAL_ERROR: The tool failed", e.Error())
}

func TestUnwrap(t *testing.T) {
	cause := errors.New("dial tcp: refused")
	e := Default().New(CodeUpstreamUnavailable, "").WithCause(cause)
	assert.Same(t, cause, e.Unwrap())
	assert.True(t, errors.Is(e, cause))
	assert.Nil(t, Default().New(CodeNotFound, "").Unwrap())
	var nilErr *Error
	assert.Nil(t, nilErr.Unwrap())

	var pathErr *testCauseError
	wrapped := Default().New(CodeInternal, "").WithCause(fmt.Errorf("open: %w", &testCauseError{"x"}))
	require.True(t, errors.As(wrapped, &pathErr))
	assert.Equal(t, "x", pathErr.msg)
}

type testCauseError struct{ msg string }

func (e *testCauseError) Error() string { return e.msg }

func TestIsMatchesOnCodeOnly(t *testing.T) {
	e := Default().New(CodeNotFound, "order 7 does not exist")
	tests := []struct {
		name   string
		target error
		want   bool
	}{
		{"same code, other detail", &Error{Code: CodeNotFound, Detail: "something else"}, true},
		{"same code, other everything", &Error{Code: CodeNotFound, Status: 500, Category: CategoryInternal}, true},
		{"same code from the registry", Default().New(CodeNotFound, "x"), true},
		{"other code", &Error{Code: CodeGone}, false},
		{"other code, same detail", &Error{Code: CodeGone, Detail: "order 7 does not exist"}, false},
		{"empty code", &Error{}, false},
		{"empty code, same detail", &Error{Detail: "order 7 does not exist"}, false},
		{"nil *Error", (*Error)(nil), false},
		{"not an *Error", errors.New("NOT_FOUND"), false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, e.Is(tc.target))
			assert.Equal(t, tc.want, errors.Is(e, tc.target))
			assert.Equal(t, tc.want, errors.Is(fmt.Errorf("tool: %w", e), tc.target), "through wrapping")
		})
	}
	var nilErr *Error
	assert.False(t, nilErr.Is(&Error{Code: CodeNotFound}))
	// An error without a code matches no empty-code target either.
	assert.False(t, (&Error{}).Is(&Error{}))
}

func TestFrom(t *testing.T) {
	e := Default().New(CodeConflict, "")
	other := errors.New("plain")
	tests := []struct {
		name string
		err  error
		want *Error
	}{
		{"itself", e, e},
		{"wrapped once", fmt.Errorf("save: %w", e), e},
		{"wrapped twice", fmt.Errorf("handler: %w", fmt.Errorf("save: %w", e)), e},
		{"joined after a plain error", errors.Join(other, e), e},
		{"joined and wrapped", fmt.Errorf("x: %w", errors.Join(io.EOF, fmt.Errorf("y: %w", e))), e},
		{"plain error", other, nil},
		{"nil", nil, nil},
		{"typed nil", (*Error)(nil), nil},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := From(tc.err)
			assert.Equal(t, tc.want != nil, ok)
			if tc.want == nil {
				assert.Nil(t, got)
			} else {
				assert.Same(t, tc.want, got)
			}
		})
	}
}

func TestHasCode(t *testing.T) {
	notFound := Default().New(CodeNotFound, "")
	gone := Default().New(CodeGone, "")
	tests := []struct {
		name string
		err  error
		code string
		want bool
	}{
		{"itself", notFound, CodeNotFound, true},
		{"other code", notFound, CodeGone, false},
		{"wrapped", fmt.Errorf("x: %w", notFound), CodeNotFound, true},
		{"the cause of an *Error", gone.WithCause(notFound), CodeNotFound, true},
		{"the cause of a wrapped *Error", fmt.Errorf("x: %w", gone.WithCause(fmt.Errorf("y: %w", notFound))), CodeNotFound, true},
		{"outer of a cause chain", gone.WithCause(notFound), CodeGone, true},
		{"plain error", errors.New("NOT_FOUND"), CodeNotFound, false},
		{"nil", nil, CodeNotFound, false},
		{"empty code", notFound, "", false},
		{"joined, first", errors.Join(notFound, gone), CodeNotFound, true},
		// HasCode documents "err's chain holds an *Error with the given
		// code"; errors.Join and multi-%w put both errors in the chain.
		{"joined, second", errors.Join(notFound, gone), CodeGone, true},
		{"multi %w, second", fmt.Errorf("%w; %w", notFound, gone), CodeGone, true},
		{"joined in an *Error's cause", gone.WithCause(errors.Join(io.EOF, fmt.Errorf("y: %w", notFound))), CodeNotFound, true},
		{"joined after a typed nil", errors.Join((*Error)(nil), gone), CodeGone, true},
		{"joined, neither", errors.Join(notFound, io.EOF), CodeGone, false},
		{"joined, empty code", errors.Join(notFound, gone), "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			assert.Equal(t, tc.want, HasCode(tc.err, tc.code))
		})
	}
}

// withBase builds the same fully populated error on every call, so a
// receiver can be compared against a fresh twin after a With… call.
func withBase() *Error {
	return Default().New(CodeValidationFailed, "limit must be at most 100").
		WithCause(io.EOF).
		WithStatus(422).
		WithRetryAfter(time.Second).
		WithField("limit").
		WithAllowedValues([]any{"a", "b"}).
		WithSuggestedValue(100).
		WithHint("hint").
		WithHumanHint("human hint").
		WithSuggestions("s1", "s2").
		WithActions(ActionReadStateFirst).
		WithRelatedCodes(CodeNotFound).
		WithDetails(map[string]any{"a": 1, "b": "two"}).
		WithExampleRequest(map[string]any{"limit": 100}).
		WithIntent(Intent{Operation: "op"}).
		WithTool("tool").
		WithUpstream(Upstream{Vendor: "v", Status: 503}).
		WithItems(ItemError{Index: 1, Err: &Error{Code: CodeNotFound}}).
		WithInstance("/tools/x").
		WithRequestID("req-1").
		WithTraceID("4bf92f3577b34da6a3ce929d0e0e4736")
}

func TestWithMethodsReturnCopies(t *testing.T) {
	cause := errors.New("new cause")
	tests := []struct {
		name  string
		apply func(*Error) *Error
		get   func(*Error) any
		want  any
	}{
		{"WithCause", func(e *Error) *Error { return e.WithCause(cause) }, func(e *Error) any { return e.Unwrap() }, cause},
		{"WithDetail", func(e *Error) *Error { return e.WithDetail("d2") }, func(e *Error) any { return e.Detail }, "d2"},
		{"WithStatus", func(e *Error) *Error { return e.WithStatus(409) }, func(e *Error) any { return e.Status }, 409},
		{"WithSeverity", func(e *Error) *Error { return e.WithSeverity(SeverityFatal) }, func(e *Error) any { return e.Severity }, SeverityFatal},
		{"WithRetryable", func(e *Error) *Error { return e.WithRetryable(true) }, func(e *Error) any { return e.Retryable }, true},
		{"WithRetryAfter", func(e *Error) *Error { return e.WithRetryAfter(3 * time.Second) }, func(e *Error) any { return e.RetryAfter }, 3 * time.Second},
		{"WithRetryAfter negative is zero", func(e *Error) *Error { return e.WithRetryAfter(-time.Second) }, func(e *Error) any { return e.RetryAfter }, time.Duration(0)},
		{"WithField", func(e *Error) *Error { return e.WithField("/items/0") }, func(e *Error) any { return e.Field }, "/items/0"},
		{"WithAllowedValues", func(e *Error) *Error { return e.WithAllowedValues(Range{Minimum: 1}) }, func(e *Error) any { return e.AllowedValues }, Range{Minimum: 1}},
		{"WithSuggestedValue", func(e *Error) *Error { return e.WithSuggestedValue("x") }, func(e *Error) any { return e.SuggestedValue }, "x"},
		{"WithHint", func(e *Error) *Error { return e.WithHint("h2") }, func(e *Error) any { return e.Hint }, "h2"},
		{"WithHumanHint", func(e *Error) *Error { return e.WithHumanHint("hh2") }, func(e *Error) any { return e.HumanHint }, "hh2"},
		{"WithSuggestions", func(e *Error) *Error { return e.WithSuggestions("x", "y") }, func(e *Error) any { return e.Suggestions }, []string{"x", "y"}},
		{"WithActions", func(e *Error) *Error { return e.WithActions(ActionRefreshAuth) }, func(e *Error) any { return e.Actions }, []string{ActionRefreshAuth}},
		{"WithRelatedCodes", func(e *Error) *Error { return e.WithRelatedCodes(CodeGone) }, func(e *Error) any { return e.RelatedCodes }, []string{CodeGone}},
		{"WithDetails", func(e *Error) *Error { return e.WithDetails(map[string]any{"b": 2, "c": 3}) }, func(e *Error) any { return e.Details }, map[string]any{"a": 1, "b": 2, "c": 3}},
		{"WithExampleRequest", func(e *Error) *Error { return e.WithExampleRequest("body") }, func(e *Error) any { return e.ExampleRequest }, "body"},
		{"WithIntent", func(e *Error) *Error { return e.WithIntent(Intent{Operation: "op2", State: "s"}) }, func(e *Error) any { return *e.Intent }, Intent{Operation: "op2", State: "s"}},
		{"WithTool", func(e *Error) *Error { return e.WithTool("t2") }, func(e *Error) any { return e.Tool }, "t2"},
		{"WithUpstream", func(e *Error) *Error { return e.WithUpstream(Upstream{Vendor: "v2"}) }, func(e *Error) any { return *e.Upstream }, Upstream{Vendor: "v2"}},
		{"WithItems", func(e *Error) *Error { return e.WithItems(ItemError{Index: 5}) }, func(e *Error) any { return e.Errors }, []ItemError{{Index: 5}}},
		{"WithInstance", func(e *Error) *Error { return e.WithInstance("/i2") }, func(e *Error) any { return e.Instance }, "/i2"},
		{"WithRequestID", func(e *Error) *Error { return e.WithRequestID("req-2") }, func(e *Error) any { return e.RequestID }, "req-2"},
		{"WithTraceID", func(e *Error) *Error { return e.WithTraceID("00000000000000000000000000000001") }, func(e *Error) any { return e.TraceID }, "00000000000000000000000000000001"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			recv := withBase()
			before := tc.get(recv)
			require.NotEqual(t, tc.want, before, "test setup: the method must change the field")

			got := tc.apply(recv)
			require.NotNil(t, got)
			assert.NotSame(t, recv, got, "a copy, not the receiver")
			assert.Equal(t, tc.want, tc.get(got), "the copy has the new value")
			assert.Equal(t, before, tc.get(recv), "the receiver's field is unchanged")
			assert.Equal(t, withBase(), recv, "nothing else on the receiver changed")

			var nilErr *Error
			assert.Nil(t, tc.apply(nilErr), "With… on a nil *Error returns nil")
		})
	}
}

func TestWithKeepsOtherFields(t *testing.T) {
	e := withBase().WithDetail("changed")
	want := withBase()
	want.Detail = "changed"
	assert.Equal(t, want, e)
	assert.Same(t, io.EOF, e.Unwrap(), "the cause travels with the copy")
}

func TestWithCopiesSlicesPassedIn(t *testing.T) {
	steps := []string{"s1", "s2"}
	actions := []string{ActionRefreshAuth}
	codes := []string{CodeGone}
	items := []ItemError{{Index: 1, Err: &Error{Code: CodeNotFound}}}
	details := map[string]any{"k": "v"}

	e := Default().New(CodeNotFound, "").
		WithSuggestions(steps...).
		WithActions(actions...).
		WithRelatedCodes(codes...).
		WithItems(items...).
		WithDetails(details)

	steps[0] = "mutated"
	actions[0] = "mutated"
	codes[0] = "MUTATED"
	items[0].Index = 99
	details["k"] = "mutated"
	details["extra"] = 1

	assert.Equal(t, []string{"s1", "s2"}, e.Suggestions)
	assert.Equal(t, []string{ActionRefreshAuth}, e.Actions)
	assert.Equal(t, []string{CodeGone}, e.RelatedCodes)
	assert.Equal(t, 1, e.Errors[0].Index)
	assert.Equal(t, map[string]any{"k": "v"}, e.Details)
}

func TestWithDetailsMergesWithoutMutatingReceiver(t *testing.T) {
	base := Default().New(CodeNotFound, "").WithDetails(map[string]any{"a": 1, "b": 2})
	receiverMap := base.Details

	merged := base.WithDetails(map[string]any{"b": "two", "c": 3})
	assert.Equal(t, map[string]any{"a": 1, "b": "two", "c": 3}, merged.Details, "overlaid, later wins")
	assert.Equal(t, map[string]any{"a": 1, "b": 2}, base.Details, "receiver's map untouched")
	assert.Equal(t, map[string]any{"a": 1, "b": 2}, receiverMap)

	merged.Details["d"] = 4
	assert.NotContains(t, base.Details, "d", "the copy's map is its own")

	again := base.WithDetails(nil)
	assert.Equal(t, map[string]any{"a": 1, "b": 2}, again.Details)
	again.Details["z"] = 0
	assert.NotContains(t, base.Details, "z")

	fresh := Default().New(CodeNotFound, "")
	require.Nil(t, fresh.Details)
	assert.Equal(t, map[string]any{"x": 1}, fresh.WithDetails(map[string]any{"x": 1}).Details)
	assert.Nil(t, fresh.Details)
}

func TestWithIntentAndUpstreamAreNotShared(t *testing.T) {
	in := Intent{Operation: "op"}
	e := Default().New(CodeCancelled, "").WithIntent(in)
	in.Operation = "mutated"
	assert.Equal(t, "op", e.Intent.Operation)

	u := Upstream{Vendor: "stripe"}
	e2 := Default().New(CodeUpstreamUnclassified, "").WithUpstream(u)
	u.Vendor = "mutated"
	assert.Equal(t, "stripe", e2.Upstream.Vendor)
}
