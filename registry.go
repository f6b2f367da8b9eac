package toolerr

import (
	"errors"
	"fmt"
	"maps"
	"slices"
	"sync"
	"sync/atomic"
)

// Registry holds code definitions. A registry may extend a parent: lookups
// fall back to the parent, and a code defined in the parent cannot be defined
// again. Services keep their own codes in a registry that extends [Default].
//
// A Registry is safe for concurrent use. Lookups never take a lock: the
// definitions are replaced as a whole on every registration.
type Registry struct {
	parent   *Registry
	docsBase string
	sealed   bool

	mu   sync.Mutex // serialises Register and DeclareFallbacks
	defs atomic.Pointer[map[string]*Def]
	// fallbacks holds the tools' declared fallbacks (fallback.go); nil
	// until the first declaration.
	fallbacks atomic.Pointer[map[string][]Fallback]
}

// RegistryOption configures a [Registry].
type RegistryOption func(*Registry)

// WithDocsBase sets the URL prefix of code documentation: a code without a
// DocsURL of its own gets base+CODE as docs_url and as the problem type.
// Without a base, the type is "urn:toolerr:CODE" and docs_url is omitted.
func WithDocsBase(base string) RegistryOption {
	return func(r *Registry) { r.docsBase = base }
}

// NewRegistry returns an empty registry that extends parent (nil for none).
func NewRegistry(parent *Registry, opts ...RegistryOption) *Registry {
	r := &Registry{parent: parent}
	for _, o := range opts {
		o(r)
	}
	empty := map[string]*Def{}
	r.defs.Store(&empty)
	return r
}

// ErrSealed is the error (tested with errors.Is) that Register and
// DeclareFallbacks return on a sealed registry: the built-in one,
// [Default], which is shared by the whole process and so never changes.
// Register codes and declare fallbacks in a registry of your own,
// NewRegistry(toolerr.Default()).
var ErrSealed = errors.New("toolerr: the default registry is sealed")

// errSealed is returned by Register on the built-in registry.
var errSealed = fmt.Errorf("%w; register into NewRegistry(toolerr.Default())", ErrSealed)

// Register validates and adds definitions, all or none. It reports every
// problem found: codes that are not SCREAMING_SNAKE, already defined here or
// in a parent, or defined twice in defs; unknown categories or severities;
// statuses outside 400–599; retryable codes in categories that cannot be
// retried; missing title or hints; deprecated codes without a registered
// replacement and a removal date.
func (r *Registry) Register(defs ...Def) error {
	if r.sealed {
		return errSealed
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	next := maps.Clone(*r.defs.Load())
	batch := make(map[string]*Def, len(defs))
	for _, d := range defs {
		d := d.withDefaults()
		batch[d.Code] = &d
	}
	known := func(code string) bool {
		_, inBatch := batch[code]
		_, inRegistry := r.lookup(code)
		return inBatch || inRegistry
	}
	var errs []error
	seen := make(map[string]bool, len(defs))
	for _, d := range defs {
		if seen[d.Code] {
			errs = append(errs, fmt.Errorf("%s: defined twice", d.Code))
		}
		seen[d.Code] = true
		if _, dup := r.lookup(d.Code); dup {
			errs = append(errs, fmt.Errorf("%s: already registered", d.Code))
		}
		if err := batch[d.Code].validate(known); err != nil {
			errs = append(errs, err)
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("toolerr: register: %w", err)
	}
	maps.Copy(next, batch)
	r.defs.Store(&next)
	return nil
}

// lookup finds the registered definition of code here or in a parent.
func (r *Registry) lookup(code string) (*Def, bool) {
	for reg := r; reg != nil; reg = reg.parent {
		if d, ok := (*reg.defs.Load())[code]; ok {
			return d, true
		}
	}
	return nil, false
}

// Lookup returns a copy of the definition of code, here or in a parent.
func (r *Registry) Lookup(code string) (Def, bool) {
	d, ok := r.lookup(code)
	if !ok {
		return Def{}, false
	}
	return d.withDefaults(), true
}

// Defs returns copies of every definition, the parents' included, sorted by code.
func (r *Registry) Defs() []Def {
	var out []Def
	for reg := r; reg != nil; reg = reg.parent {
		for _, d := range *reg.defs.Load() {
			out = append(out, d.withDefaults())
		}
	}
	slices.SortFunc(out, func(a, b Def) int {
		switch {
		case a.Code < b.Code:
			return -1
		case a.Code > b.Code:
			return 1
		}
		return 0
	})
	return out
}

// New builds an error of a registered code with this occurrence's detail
// (the code's title when detail is empty). An unregistered code is a
// programming error: New then returns INTERNAL_ERROR whose Go cause names the
// unknown code, so the mistake shows in logs but never panics.
func (r *Registry) New(code, detail string) *Error {
	// Small enough to inline: where the caller only copies the error on
	// (reg.New(…).WithField(…)), the compiler keeps this one on the stack.
	e := new(Error)
	r.fill(e, code, detail)
	return e
}

// fill sets *e to the error New returns.
func (r *Registry) fill(e *Error, code, detail string) {
	d, ok := r.lookup(code)
	if !ok {
		*e = *r.internal().WithCause(fmt.Errorf("toolerr: code %q is not registered", truncateForError(code)))
		return
	}
	r.build(e, d, detail, nil)
}

// NewCause is New(code, detail).WithCause(err) built without WithCause's
// copy of the error, for builders of errors on hot paths (the
// classifier). A nil err leaves New's error as it is.
//
// The error is one allocation: its copies of the definition's retry
// policy and (up to two) repair steps are stored with it, where New
// allocates each on its own. (New's error often stays on the caller's
// stack, as New(…).With…(…) copies it; NewCause's is always on the heap.)
func (r *Registry) NewCause(code, detail string, err error) *Error {
	b := new(errorBlock)
	e := &b.err
	if d, ok := r.lookup(code); ok {
		r.build(e, d, detail, &b.room)
	} else {
		r.fill(e, code, detail)
	}
	if err != nil {
		e.cause = err
	}
	return e
}

// errorBlock is an error allocated with room for its own copies of its
// definition's texts and policy.
type errorBlock struct {
	err  Error
	room errorRoom
}

// errorRoom holds a new error's copies of its definition's retry policy
// and repair steps, which its RetryPolicy and Suggestions point into.
// Nothing writes them after build: a copy of the error points into the
// original's room, as it would share a separate allocation.
type errorRoom struct {
	retry  RetryPolicy
	repair [2]string
}

// internal returns INTERNAL_ERROR from this registry's chain, else the built-in one.
func (r *Registry) internal() *Error {
	e := new(Error)
	if d, ok := r.lookup(CodeInternal); ok {
		r.build(e, d, "", nil)
		return e
	}
	d, _ := Default().lookup(CodeInternal)
	Default().build(e, d, "", nil)
	return e
}

// build sets *e to a new error of definition d with the occurrence's
// detail. Its copies of d's retry policy and repair steps go in room when
// there is one (and they fit), else in allocations of their own.
func (r *Registry) build(e *Error, d *Def, detail string, room *errorRoom) {
	if detail == "" {
		detail = d.Title
	}
	docs := d.DocsURL
	if docs == "" && r.docsBase != "" {
		docs = r.docsBase + d.Code
	}
	typ := docs
	if typ == "" {
		typ = d.urn
	}
	if typ == "" { // a definition withDefaults never saw
		typ = "urn:toolerr:" + d.Code
	}
	*e = Error{
		Type:         typ,
		Title:        d.Title,
		Status:       d.Status,
		Detail:       detail,
		Code:         d.Code,
		Category:     d.Category,
		Severity:     d.Severity,
		Retryable:    d.Retryable,
		Hint:         d.Hint,
		HumanHint:    d.HumanHint,
		Actions:      slices.Clone(d.Actions),
		DocsURL:      docs,
		RelatedCodes: slices.Clone(d.Related),
		def:          d,
	}
	switch {
	case len(d.Repair) == 0:
		// nil, as slices.Clone leaves it
	case room != nil && len(d.Repair) <= len(room.repair):
		n := copy(room.repair[:], d.Repair)
		e.Suggestions = room.repair[:n:n] // capped: an append copies them out
	default:
		e.Suggestions = slices.Clone(d.Repair)
	}
	if d.Retryable {
		var p *RetryPolicy
		if room != nil {
			p = &room.retry
		} else {
			p = new(RetryPolicy)
		}
		*p = d.Retry
		e.RetryPolicy = p
		if p.Strategy == StrategyRetryAfter {
			// Codes that say "wait, then retry" always carry a delay; until
			// the occurrence knows a better one, the documented base is it.
			e.RetryAfter = p.BaseDelay
		}
	}
}

// Kind returns the category and default retryability of a registered code
// without copying its definition, for classifiers on hot paths.
func (r *Registry) Kind(code string) (category Category, retryable bool, ok bool) {
	d, ok := r.lookup(code)
	if !ok {
		return "", false, false
	}
	return d.Category, d.Retryable, true
}
