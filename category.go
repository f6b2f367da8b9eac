package toolerr

import (
	"fmt"
	"log/slog"

	"github.com/toolerr/toolerr/internal/textcut"
)

// Category is the closed taxonomy every code belongs to. An agent decides
// what to do next from the category alone when it does not know the code.
//
// Categories encode to and from JSON as their lower-case names; decoding an
// unknown name is an error.
type Category string

// The categories of the taxonomy, with what an agent should do on each.
const (
	// CategoryValidation: the arguments are wrong. Fix the named field or ask the user.
	CategoryValidation Category = "validation"
	// CategoryNotFound: the resource does not exist. Look it up another way or ask the user.
	CategoryNotFound Category = "not_found"
	// CategoryAuth: credentials are missing or expired. Refresh them, else escalate.
	CategoryAuth Category = "auth"
	// CategoryPermission: the caller may not do this. Stop mutating and escalate.
	CategoryPermission Category = "permission"
	// CategoryPrecondition: the resource is not in the state the call assumed. Read it first.
	CategoryPrecondition Category = "precondition"
	// CategoryConflict: the call collides with the current state. Fetch, reconcile or abort.
	CategoryConflict Category = "conflict"
	// CategoryRateLimit: too many calls. Wait retry_after_ms, or defer.
	CategoryRateLimit Category = "rate_limit"
	// CategoryTransient: a passing failure downstream. The orchestrator retries with backoff.
	CategoryTransient Category = "transient"
	// CategoryUpstream: a downstream failure that retrying will not fix. Surface and escalate.
	CategoryUpstream Category = "upstream"
	// CategoryPolicy: a rule forbids the call. Tell the user; never retry.
	CategoryPolicy Category = "policy"
	// CategoryInternal: the tool itself failed. Escalate if it persists.
	CategoryInternal Category = "internal"
	// CategoryCancelled: the caller went away. Nothing to do.
	CategoryCancelled Category = "cancelled"
)

// Categories lists every category in taxonomy order.
func Categories() []Category {
	return []Category{
		CategoryValidation, CategoryNotFound, CategoryAuth, CategoryPermission,
		CategoryPrecondition, CategoryConflict, CategoryRateLimit, CategoryTransient,
		CategoryUpstream, CategoryPolicy, CategoryInternal, CategoryCancelled,
	}
}

// Valid reports whether c is one of the taxonomy's categories.
func (c Category) Valid() bool {
	switch c {
	case CategoryValidation, CategoryNotFound, CategoryAuth, CategoryPermission,
		CategoryPrecondition, CategoryConflict, CategoryRateLimit, CategoryTransient,
		CategoryUpstream, CategoryPolicy, CategoryInternal, CategoryCancelled:
		return true
	}
	return false
}

// CanRetry reports whether errors of category c may be marked retryable.
// Only failures independent of the arguments and plausibly passing qualify:
// rate limits, transient faults, and the tool's own internal failures (which
// an orchestrator may retry with caution). Every other category is fixed by
// changing the call, the state or the credentials, never by repeating it.
func (c Category) CanRetry() bool {
	return c == CategoryRateLimit || c == CategoryTransient || c == CategoryInternal
}

// MarshalText implements encoding.TextMarshaler. An invalid category is an error.
func (c Category) MarshalText() ([]byte, error) {
	if !c.Valid() {
		return nil, fmt.Errorf("toolerr: invalid category %q", string(c))
	}
	return []byte(c), nil
}

// UnmarshalText implements encoding.TextUnmarshaler. An unknown name is an error.
func (c *Category) UnmarshalText(b []byte) error {
	v := Category(b)
	if !v.Valid() {
		return fmt.Errorf("toolerr: unknown category %q", truncateForError(string(b)))
	}
	*c = v
	return nil
}

// truncateForError bounds untrusted text quoted in an error message, at a
// rune boundary.
func truncateForError(s string) string {
	const max = 64
	if len(s) <= max {
		return s
	}
	return textcut.AtRune(s, max) + "…"
}

// LogLevel is the level at which a failure of category c is logged: errors
// for the service's own failures and unexplained downstream ones; warnings
// for passing failures (transient, rate limits) and denials an operator may
// have to look at (permission, policy); information for the caller's
// mistakes and cancellations. The middlewares log every error at it.
func (c Category) LogLevel() slog.Level {
	switch c {
	case CategoryInternal, CategoryUpstream:
		return slog.LevelError
	case CategoryTransient, CategoryRateLimit, CategoryPermission, CategoryPolicy:
		return slog.LevelWarn
	}
	return slog.LevelInfo
}
