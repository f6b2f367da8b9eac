package middleware

import (
	"maps"
	"sync"
	"sync/atomic"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/sanitize"
)

// textCleaner is the middleware's text filter: the sanitizer's CleanText,
// with the result for every text of the registry's definitions computed
// once, when the middleware is built.
//
// Most of an error's text is its code's definition (type, title, hint,
// human hint, repair steps: about 600 of a validation error's 750
// characters), the same for every occurrence. The sanitizer is a pure
// function of its input, so the stored result is what it would return
// again. Every other text (detail, field, violations, ids, instance, tool,
// anything a handler set) is sanitized on each error, unless it is in the
// set of recent texts described below. Only the service's own definitions
// are stored in the table, never an occurrence's text, so it holds nothing
// a request brought in.
//
// The names of [Tool] adapters, constants of the service's code too, are
// added the first time one of their errors is rendered (at most
// maxToolNames of them). Other texts go through a bounded set of recent
// texts the sanitizer left unchanged (cleanSet), which holds nothing the
// middleware does not send out anyway.
type textCleaner struct {
	san    *sanitize.Sanitizer
	recent *cleanSet

	mu sync.Mutex // serializes learn's writers
	// known maps each definition text, and each learned tool name, to its
	// cleaned form: one table, so that a text costs one lookup; copied on
	// write by learn, read without a lock.
	known atomic.Pointer[map[string]string]
	tools int // tool names learned, under mu
}

// maxToolNames bounds the tool names a textCleaner keeps.
const maxToolNames = 1024

// newTextCleaner cleans the texts of every definition of reg with san.
// A code registered after the middleware was built is sanitized on each
// error, like any other text.
func newTextCleaner(san *sanitize.Sanitizer, reg *toolerr.Registry) *textCleaner {
	c := &textCleaner{san: san, recent: newCleanSet()}
	known := make(map[string]string)
	c.known.Store(&known)
	add := func(texts ...string) {
		for _, s := range texts {
			if _, ok := known[s]; !ok && s != "" {
				known[s] = san.CleanText(s)
			}
		}
	}
	if reg == nil {
		return c
	}
	for _, d := range reg.Defs() {
		add(d.Code, "urn:toolerr:"+d.Code, d.Title, d.Hint, d.HumanHint, d.DocsURL)
		add(d.Repair...)
		add(d.Actions...)
		add(d.Related...)
		for _, w := range d.Wordings {
			add(w.Hint, w.HumanHint)
			add(w.Repair...)
		}
	}
	return c
}

// clean returns s sanitized.
func (c *textCleaner) clean(s string) string {
	if v, ok := (*c.known.Load())[s]; ok {
		return v
	}
	return c.recent.clean(s, c.san.CleanText)
}

// learn stores the cleaned form of a Tool adapter's name. Only names given
// to [Tool] and [ToolFunc] in the service's code may be passed, never a
// text a request brought in.
func (c *textCleaner) learn(name string) {
	if _, ok := (*c.known.Load())[name]; ok {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	old := *c.known.Load()
	if _, ok := old[name]; ok || c.tools >= maxToolNames {
		return
	}
	m := make(map[string]string, len(old)+1)
	maps.Copy(m, old)
	m[name] = c.san.CleanText(name)
	c.known.Store(&m)
	c.tools++
}
