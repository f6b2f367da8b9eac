package toolerrconnect

import (
	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/sanitize"
)

// newCleaner returns the interceptor's text filter: the sanitizer's
// CleanText, which also masks card numbers. Most of an error's text is its code's
// definition (type, title, hint, human hint, repair steps), the same for
// every occurrence: those texts of the registry are cleaned once, here,
// and looked up after, as the HTTP middleware does. The table holds only
// the service's own definitions, never a request's text, and is read-only
// after this returns.
func newCleaner(san *sanitize.Sanitizer, reg *toolerr.Registry) func(string) string {
	clean := san.CleanText
	known := map[string]string{}
	add := func(texts ...string) {
		for _, s := range texts {
			if _, ok := known[s]; !ok && s != "" {
				known[s] = clean(s)
			}
		}
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
	return func(s string) string {
		if v, ok := known[s]; ok {
			return v
		}
		return clean(s)
	}
}
