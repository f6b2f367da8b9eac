package classify

// ErrorMapper reads a typed error that a handler got back from an SDK, a
// gRPC call or a database driver, and says what it stands for as an
// [Outcome]: the vendor and its code, the HTTP status the SDK saw, the
// vendor's message, field, request id and delay. The classifier then
// decides the code as for any downstream outcome, so a vendor code is read
// through the same tables as the translators' (see
// [Classifier.RegisterVendor]) and a status through the same status table.
//
// A mapper looks for its type anywhere in err's chain (errors.As), since
// handlers wrap what they return: fmt.Errorf("charge: %w", err). It must
// be safe for concurrent use and must not block.
type ErrorMapper interface {
	// MapError returns the outcome err stands for; ok is false when err's
	// chain holds nothing of the mapper's kind. Method and Idempotent are
	// the classifier's to fill.
	MapError(err error) (o Outcome, ok bool)
}

// VendorTabler is implemented by a mapper whose outcomes name vendor
// codes: its tables (vendor → vendor code → toolerr code) are registered
// on the classifier when the mapper is added with [WithErrorMappers], as
// [Classifier.RegisterVendor] would. A table naming a code the registry
// lacks is not registered; those errors then fall back.
type VendorTabler interface {
	VendorTables() map[string]map[string]string
}

// MapperFunc adapts a function to [ErrorMapper].
type MapperFunc func(err error) (Outcome, bool)

// MapError calls f.
func (f MapperFunc) MapError(err error) (Outcome, bool) { return f(err) }

// WithErrorMappers adds mappers of typed errors, tried in order before the
// SDK reader (see [Classifier.RegisterSDKReader]) and the built-in ones ([SQLMapper], [SQLStateMapper], [SmithyMapper],
// [RedisMapper]); the first that knows an error decides its
// outcome. Default: the built-in mappers only.
func WithErrorMappers(ms ...ErrorMapper) Option {
	return func(c *Classifier) {
		for _, m := range ms {
			if m != nil {
				c.mappers = append(c.mappers, m)
			}
		}
	}
}

// builtinMappers are the mappers every classifier tries after its own:
// they need no SDK, only the standard library.
var builtinMappers = []ErrorMapper{SQLMapper(), SQLStateMapper(), SmithyMapper(), RedisMapper()}

// RegisterSDKReader sets the mapper tried after those of
// [WithErrorMappers] and before the built-in ones: the reader of SDK errors
// by what they carry, which translate.NewSet registers with the vendor
// code tables, so that an SDK's error of any major version is read by its
// vendor's translator. Registering again replaces it; nil removes it. Safe
// to call while other goroutines classify.
func (c *Classifier) RegisterSDKReader(m ErrorMapper) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if m == nil {
		c.sdkReader.Store(nil)
		return
	}
	c.sdkReader.Store(&m)
}

// mapError returns the outcome of the first mapper that knows err. A
// *toolerr.Error in the chain is not the mappers' to read: callers check
// it first.
func (c *Classifier) mapError(err error) (Outcome, bool) {
	var reader []ErrorMapper
	if m := c.sdkReader.Load(); m != nil {
		reader = []ErrorMapper{*m}
	}
	for _, ms := range [3][]ErrorMapper{c.mappers, reader, builtinMappers} {
		for _, m := range ms {
			if o, ok := m.MapError(err); ok {
				if o.Err == nil && o.Status == 0 && o.VendorCode == "" {
					o.Err = err // nothing else to decide by: the Go-error rules
				}
				return o, true
			}
		}
	}
	return Outcome{}, false
}
