package toolerr

import "fmt"

// Severity says how bad a failure is, independent of its HTTP status: a 404
// of a deleted resource is fatal for the task, a partial batch failure is a
// warning.
//
// Severities encode to and from JSON as their lower-case names; decoding an
// unknown name is an error.
type Severity string

// The severities, mildest first.
const (
	// SeverityInfo: nothing went wrong that the agent must act on (a cancellation).
	SeverityInfo Severity = "info"
	// SeverityWarning: part of the work succeeded (a partial batch).
	SeverityWarning Severity = "warning"
	// SeverityError: this call failed; the task can still succeed another way.
	SeverityError Severity = "error"
	// SeverityFatal: the task cannot succeed as asked; stop and tell the user.
	SeverityFatal Severity = "fatal"
)

// Severities lists every severity, mildest first.
func Severities() []Severity {
	return []Severity{SeverityInfo, SeverityWarning, SeverityError, SeverityFatal}
}

// Valid reports whether s is one of the four severities.
func (s Severity) Valid() bool {
	switch s {
	case SeverityInfo, SeverityWarning, SeverityError, SeverityFatal:
		return true
	}
	return false
}

// MarshalText implements encoding.TextMarshaler. An invalid severity is an error.
func (s Severity) MarshalText() ([]byte, error) {
	if !s.Valid() {
		return nil, fmt.Errorf("toolerr: invalid severity %q", string(s))
	}
	return []byte(s), nil
}

// UnmarshalText implements encoding.TextUnmarshaler. An unknown name is an error.
func (s *Severity) UnmarshalText(b []byte) error {
	v := Severity(b)
	if !v.Valid() {
		return fmt.Errorf("toolerr: unknown severity %q", truncateForError(string(b)))
	}
	*s = v
	return nil
}
