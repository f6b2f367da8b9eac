package toolerrhuma

import (
	"sync"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/argcheck"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/middleware/sanitize"
)

// Option configures [Install].
type Option func(*config)

// config is one installation's settings; immutable once built.
type config struct {
	registry   *toolerr.Registry
	sanitizer  *sanitize.Sanitizer
	classifier *classify.Classifier
	maxBody    int
}

// WithRegistry sets the registry the errors are built from: the codes of
// huma's statuses, VALIDATION_FAILED of huma's validation, and the codes
// the OpenAPI document lists. Use the registry the service registers its
// own codes in. Default: toolerr.Default().
func WithRegistry(r *toolerr.Registry) Option {
	return func(c *config) {
		if r != nil {
			c.registry = r
		}
	}
}

// WithSanitizer sets the sanitizer that cleans every error huma renders
// itself, when no toolerr middleware serves the request (the middleware
// sanitizes with its own). Default: sanitize.New().
func WithSanitizer(s *sanitize.Sanitizer) Option {
	return func(c *config) {
		if s != nil {
			c.sanitizer = s
		}
	}
}

// WithMaxBodyBytes sets how many bytes of a request body the adapter keeps,
// as huma reads them, to derive repairs (suggested_value, example_request)
// when huma rejects the body; a larger body gets huma's violations without
// repairs. 0 keeps nothing. Default: argcheck.DefaultMaxBytes (1 MiB).
func WithMaxBodyBytes(n int) Option {
	return func(c *config) {
		c.maxBody = max(n, 0)
	}
}

// newConfig applies opts to the defaults.
func newConfig(opts []Option) *config {
	c := &config{maxBody: argcheck.DefaultMaxBytes}
	for _, o := range opts {
		if o != nil {
			o(c)
		}
	}
	if c.registry == nil {
		c.registry = toolerr.Default()
	}
	if c.sanitizer == nil {
		c.sanitizer = defaultSanitizer()
	}
	c.classifier = classify.New(c.registry)
	return c
}

// defaultSanitizer is the sanitizer of the defaults, built once.
var defaultSanitizer = sync.OnceValue(func() *sanitize.Sanitizer { return sanitize.New() })

// defaults is the configuration of errors built for an API that Install
// did not configure (huma's constructor is process-wide): built once, then
// only read.
var defaults = sync.OnceValue(func() *config { return newConfig(nil) })
