package classify

import (
	"context"
	"errors"
	"fmt"
	"maps"
)

type vendorKey struct{ vendor, code string }

// RegisterVendor adds a vendor's code table: vendor error code → toolerr code.
// A row "ABXXX" covers every five-character code of class AB that has no
// row of its own (SQLSTATE classes).
// Every target must be registered in the classifier's registry; the table is
// added whole or not at all. Registering a vendor code again replaces it.
// Safe to call while other goroutines classify.
func (c *Classifier) RegisterVendor(vendor string, table map[string]string) error {
	if vendor == "" {
		return errors.New("classify: register vendor: empty vendor name")
	}
	var errs []error
	for vc, code := range table {
		if vc == "" {
			errs = append(errs, errors.New("empty vendor code"))
		}
		if _, _, ok := c.reg.Kind(code); !ok {
			errs = append(errs, fmt.Errorf("%q maps to unregistered code %q", vc, code))
		}
	}
	if err := errors.Join(errs...); err != nil {
		return fmt.Errorf("classify: register vendor %s: %w", vendor, err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	next := maps.Clone(*c.vendors.Load())
	for vc, code := range table {
		next[vendorKey{vendor, vc}] = code
	}
	c.vendors.Store(&next)
	return nil
}

// vendorCode returns the toolerr code a vendor code maps to. A code of five
// characters that has no row of its own falls back to the row of its
// class, its first two characters and "XXX" ("22XXX" for SQLSTATE 22P02).
func (c *Classifier) vendorCode(vendor, code string) (string, bool) {
	table := *c.vendors.Load()
	v, ok := table[vendorKey{vendor, code}]
	if !ok && len(code) == 5 {
		v, ok = table[vendorKey{vendor, code[:2] + "XXX"}]
	}
	return v, ok
}

// Unmapped describes a classification that the mapping tables did not
// explain: a vendor code no table maps, or an UPSTREAM_UNCLASSIFIED result.
// A rising rate of these means a translator is out of date.
//
// VendorCode is the vendor's text, cut to 128 bytes and passed through the
// classifier's message filter (see [WithMessageFilter]); with no filter it
// is untrusted: sanitize it before logging.
type Unmapped struct {
	Vendor     string
	VendorCode string
	Status     int
	// Code is the code the outcome was classified as in the end.
	Code string
}

// Observer is told of every unmapped classification. The middleware connects
// it to the toolerr.upstream.unmapped counter and a warning log line.
// Implementations must be safe for concurrent use and should not block.
type Observer interface {
	Unmapped(ctx context.Context, u Unmapped)
}

// ObserverFunc adapts a function to [Observer].
type ObserverFunc func(ctx context.Context, u Unmapped)

// Unmapped calls f.
func (f ObserverFunc) Unmapped(ctx context.Context, u Unmapped) { f(ctx, u) }
