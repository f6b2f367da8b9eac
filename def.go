package toolerr

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// Stability says whether a code may change.
type Stability string

// The stability levels of a code.
const (
	// Stable codes keep their meaning; they are never reused for another cause.
	Stable Stability = "stable"
	// Beta codes may still be renamed or split.
	Beta Stability = "beta"
	// Deprecated codes are still emitted but name a replacement and a removal date.
	Deprecated Stability = "deprecated"
)

// Def defines one error code: what it means, how it is classified, and what
// an agent and a person should do about it. A Def is registered once in a
// [Registry] and never changes afterwards; errors built from it are copies.
type Def struct {
	// Code is the stable SCREAMING_SNAKE identifier. Required.
	Code string
	// Category is the taxonomy category. Required.
	Category Category
	// Severity defaults to SeverityError.
	Severity Severity
	// Status is the HTTP status of responses carrying the code, 400–599. Required.
	Status int
	// Retryable is the default retryability; allowed only when Category.CanRetry.
	Retryable bool
	// Title is the short fixed summary (RFC 9457 title). Required.
	Title string
	// Hint is the imperative next step for the model. Required.
	Hint string
	// HumanHint is a sentence safe to show the end user. Required.
	HumanHint string
	// DocsURL is the code's documentation; when empty the registry's docs base is used.
	DocsURL string
	// Cause is a paragraph on what causes the error, for the generated docs.
	Cause string
	// Repair lists the repair steps, most likely first; errors carry them as suggestions.
	Repair []string
	// Wordings word Hint, HumanHint and Repair for errors that carry the
	// members they point at (field, allowed_values, retry_after_ms…), most
	// specific first. Hint, HumanHint and Repair themselves are for an
	// error that carries none of them. See [Wording].
	Wordings []Wording
	// Actions are orchestrator tags every error of this code carries.
	Actions []string
	// Related names sibling codes.
	Related []string
	// Retry is the retry policy advertised when the error is retryable.
	Retry RetryPolicy
	// Stability defaults to Stable.
	Stability Stability
	// Replacement is the code to use instead; required when Deprecated.
	Replacement string
	// Removal is the date (YYYY-MM-DD) a deprecated code goes away; required when Deprecated.
	Removal string

	urn     string        // "urn:toolerr:" + Code, the type without docs; set by withDefaults
	encoded []encodedText // JSON encodings of the texts above; set by withDefaults
}

// ValidCode reports whether code is SCREAMING_SNAKE: upper-case ASCII letters
// and digits in words joined by single underscores, starting with a letter, at
// most [MaxCodeLen] bytes.
func ValidCode(code string) bool {
	if code == "" || len(code) > MaxCodeLen || code[0] < 'A' || code[0] > 'Z' {
		return false
	}
	prevUnderscore := false
	for i := 0; i < len(code); i++ {
		switch b := code[i]; {
		case b >= 'A' && b <= 'Z', b >= '0' && b <= '9':
			prevUnderscore = false
		case b == '_' && !prevUnderscore:
			prevUnderscore = true
		default:
			return false
		}
	}
	return !prevUnderscore
}

// withDefaults returns a deep copy of d with its optional fields defaulted, so
// that nothing the caller keeps aliases the registered definition.
func (d Def) withDefaults() Def {
	if d.Severity == "" {
		d.Severity = SeverityError
	}
	if d.Stability == "" {
		d.Stability = Stable
	}
	if code, ok := strings.CutPrefix(d.urn, "urn:toolerr:"); !ok || code != d.Code {
		// Kept when set: a copy of a registered definition shares its
		// strings, which the middleware's text cleaner finds by address.
		d.urn = "urn:toolerr:" + d.Code
	}
	d.Repair = slices.Clip(slices.Clone(d.Repair))
	d.Actions = slices.Clip(slices.Clone(d.Actions))
	d.Related = slices.Clip(slices.Clone(d.Related))
	d.Wordings = slices.Clip(slices.Clone(d.Wordings))
	for i := range d.Wordings {
		d.Wordings[i].Repair = slices.Clip(slices.Clone(d.Wordings[i].Repair))
	}
	d.encoded = d.encodeTexts()
	return d
}

// validate reports every way d breaks the registry's rules. known reports
// whether a code is registered (for deprecated replacements).
func (d Def) validate(known func(string) bool) error {
	var errs []error
	bad := func(format string, args ...any) {
		errs = append(errs, fmt.Errorf("%s: "+format, append([]any{d.Code}, args...)...))
	}
	if !ValidCode(d.Code) {
		bad("code must be SCREAMING_SNAKE, at most %d bytes", MaxCodeLen)
	}
	if !d.Category.Valid() {
		bad("unknown category %q", d.Category)
	}
	if !d.Severity.Valid() {
		bad("unknown severity %q", d.Severity)
	}
	if d.Status < 400 || d.Status > 599 {
		bad("status %d is not an error status (400–599)", d.Status)
	}
	if d.Retryable && !d.Category.CanRetry() {
		bad("category %s cannot be retryable", d.Category)
	}
	for _, f := range [...]struct{ name, v string }{{"title", d.Title}, {"hint", d.Hint}, {"human hint", d.HumanHint}} {
		if strings.TrimSpace(f.v) == "" {
			bad("%s is required", f.name)
		}
	}
	if len(d.Title) > MaxTitleLen {
		bad("title is longer than %d bytes", MaxTitleLen)
	}
	if len(d.Hint) > MaxHintLen || len(d.HumanHint) > MaxHintLen {
		bad("hints are limited to %d bytes", MaxHintLen)
	}
	for i, w := range d.Wordings {
		switch {
		case w.When == 0 || w.When >= 1<<len(memberNames):
			bad("wording %d: When must name members of the Member… constants", i)
		case strings.TrimSpace(w.Hint) == "":
			bad("wording %d: hint is required", i)
		case len(w.Hint) > MaxHintLen || len(w.HumanHint) > MaxHintLen:
			bad("wording %d: hints are limited to %d bytes", i, MaxHintLen)
		case len(w.Repair) > MaxListLen:
			bad("wording %d: at most %d repair steps", i, MaxListLen)
		}
	}
	for _, a := range d.Actions {
		if !ValidAction(a) {
			bad("unknown action %q", a)
		}
	}
	for _, r := range d.Related {
		if !ValidCode(r) {
			bad("related code %q is not SCREAMING_SNAKE", r)
		}
	}
	if d.Retryable {
		switch {
		case d.Retry.Strategy != StrategyExponential && d.Retry.Strategy != StrategyRetryAfter:
			bad("a retryable code needs a retry strategy")
		case d.Retry.BaseDelay <= 0 || d.Retry.MaxAttempts < 2:
			bad("a retryable code needs a positive base delay and at least 2 attempts")
		case d.Category == CategoryRateLimit && d.Retry.Strategy != StrategyRetryAfter:
			bad("a retryable rate_limit code needs the retry_after strategy")
		}
	}
	switch d.Stability {
	case Stable, Beta:
		if d.Replacement != "" || d.Removal != "" {
			bad("only deprecated codes name a replacement or removal date")
		}
	case Deprecated:
		if !known(d.Replacement) {
			bad("deprecated code needs a registered replacement, got %q", d.Replacement)
		}
		if _, err := time.Parse(time.DateOnly, d.Removal); err != nil {
			bad("deprecated code needs a removal date YYYY-MM-DD, got %q", d.Removal)
		}
	default:
		bad("unknown stability %q", d.Stability)
	}
	return errors.Join(errs...)
}

// ValidAction reports whether a is one of the orchestrator action tags:
// refresh_auth, human_required, read_state_first, or use_fallback:<tool>
// where the tool name is printable ASCII without spaces or double quotes.
func ValidAction(a string) bool {
	switch a {
	case ActionRefreshAuth, ActionHumanRequired, ActionReadStateFirst:
		return true
	}
	tool, ok := strings.CutPrefix(a, ActionUseFallbackPrefix)
	if !ok || tool == "" || len(a) > MaxListItemLen {
		return false
	}
	for i := 0; i < len(tool); i++ {
		// Printable ASCII other than space and the double quote.
		if b := tool[i]; b <= ' ' || b >= 0x7f || b == '"' {
			return false
		}
	}
	return true
}
