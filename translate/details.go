package translate

import "github.com/toolerr/toolerr/classify"

// setDetail adds a non-empty string fact to an outcome's details, creating
// the map on first use.
func setDetail(o *classify.Outcome, key, value string) {
	if value == "" {
		return
	}
	if o.Details == nil {
		o.Details = make(map[string]any, 4) // a vendor sets a few: one group
	}
	o.Details[key] = value
}
