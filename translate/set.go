package translate

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/reqscope"
	"github.com/toolerr/toolerr/internal/textcut"
)

// DefaultBodyCap is how much of a response body [Set.Response] reads.
const DefaultBodyCap = 64 << 10

// Set holds translators and picks one for each response (see the package
// documentation for the order). A Set is immutable after [NewSet] and safe
// for concurrent use.
type Set struct {
	classifier *classify.Classifier
	bodyCap    int
	gateways   []Translator
	vendors    []Translator
	generics   []Translator
	byVendor   map[string]Translator
	hosts      []hostRoute // longest suffix first
}

// hostRoute sends requests to a host suffix to a translator.
type hostRoute struct {
	suffix string // without a leading dot
	t      Translator
}

// Option configures a [Set].
type Option func(*setConfig)

type setConfig struct {
	own      []Translator
	builtins bool
	bodyCap  int
	mappers  []classify.ErrorMapper
}

// WithTranslators adds the service's own translators (for in-house APIs, or
// to replace a built-in one). They are tried before the built-in vendor
// translators, and a vendor name or host suffix they claim wins over a
// built-in one. Default: none.
func WithTranslators(ts ...Translator) Option {
	return func(c *setConfig) { c.own = append(c.own, ts...) }
}

// WithErrorMappers adds mappers of typed Go errors (see
// classify.ErrorMapper) to the classifier NewSet builds when it is given
// none, so that [Set.Classifier] classifies the errors of an SDK, a gRPC
// call or a driver as the middleware does (retrygate's Transport
// classifies its attempts' Go errors with it). A classifier passed to
// NewSet keeps its own mappers: build it with classify.WithErrorMappers;
// NewSet fails when given both. Default: the built-in mappers only.
func WithErrorMappers(ms ...classify.ErrorMapper) Option {
	return func(c *setConfig) { c.mappers = append(c.mappers, ms...) }
}

// WithoutBuiltins leaves out the built-in vendor, gateway and generic
// translators. Default: all built in.
func WithoutBuiltins() Option {
	return func(c *setConfig) { c.builtins = false }
}

// WithBodyCap sets how many bytes of a body [Set.Response] reads. Default:
// [DefaultBodyCap] (64 KiB). Values below 1 keep the default.
func WithBodyCap(n int) Option {
	return func(c *setConfig) {
		if n > 0 {
			c.bodyCap = n
		}
	}
}

// NewSet returns a Set whose errors c builds (nil: classify.New(nil)), and
// registers every translator's code table with c, and, unless
// [WithoutBuiltins], [Set.ReadSDKError] as c's reader of SDK errors. It fails when a table
// names a code c's registry does not hold; nothing is registered then.
//
// Vendor messages, fields and string details reach an error through c's
// message filter (classify.WithMessageFilter; by default the default
// sanitizer); with the filter turned off the detail is the code's title.
func NewSet(c *classify.Classifier, opts ...Option) (*Set, error) {
	cfg := setConfig{builtins: true, bodyCap: DefaultBodyCap}
	for _, o := range opts {
		o(&cfg)
	}
	if c == nil {
		c = classify.New(nil, classify.WithErrorMappers(cfg.mappers...))
	} else if len(cfg.mappers) > 0 {
		return nil, errors.New("translate: new set: WithErrorMappers applies to the classifier NewSet builds; build this classifier with classify.WithErrorMappers instead")
	}
	s := &Set{classifier: c, bodyCap: cfg.bodyCap, byVendor: map[string]Translator{}}
	s.vendors = append(s.vendors, cfg.own...)
	if cfg.builtins {
		s.gateways = builtinGateways()
		s.vendors = append(s.vendors, builtinVendors()...)
		s.generics = builtinGenerics()
	}
	var errs []error
	for _, t := range slices.Concat(s.gateways, s.vendors, s.generics) {
		if t == nil {
			errs = append(errs, errors.New("translate: nil translator"))
			continue
		}
		name := t.Vendor()
		if name == "" {
			continue
		}
		if _, dup := s.byVendor[name]; !dup {
			s.byVendor[name] = t
		}
		for _, h := range t.Hosts() {
			if h = strings.TrimPrefix(strings.ToLower(h), "."); h != "" {
				s.hosts = append(s.hosts, hostRoute{suffix: h, t: t})
			}
		}
		if table := t.Codes(); len(table) > 0 {
			if err := c.RegisterVendor(name, table); err != nil {
				errs = append(errs, err)
			}
		}
	}
	if err := errors.Join(errs...); err != nil {
		return nil, fmt.Errorf("translate: new set: %w", err)
	}
	// Longest suffix first; among equals, the first registered (the
	// service's own) wins: the sort is stable.
	slices.SortStableFunc(s.hosts, func(a, b hostRoute) int { return len(b.suffix) - len(a.suffix) })
	if cfg.builtins {
		c.RegisterSDKReader(classify.MapperFunc(s.ReadSDKError))
	}
	return s, nil
}

// Classifier returns the classifier the Set builds errors with.
func (s *Set) Classifier() *classify.Classifier { return s.classifier }

// Translate picks the translator for r and reads r. ok is false when no
// translator reads r as an error: a success. A response of 400 or more is
// always read, by the generic translators if nothing else.
//
// When r.Truncated, r.Body is first cut back to its last white space: the
// body ends at a cap, and its last word may be the fragment of a secret
// that no sanitizer rule would recognize.
func (s *Set) Translate(r *Raw) (classify.Outcome, bool) {
	if r.Truncated {
		r.Body = textcut.DropLastWord(r.Body)
	}
	failure := r.Status >= 400
	if !failure && len(r.Body) == 0 {
		return classify.Outcome{}, false // a success without a body holds no error
	}
	r.beginReading()
	defer r.endReading()
	if failure {
		for _, g := range s.gateways {
			if g.Recognizes(r) {
				if o, ok := s.try(g, r); ok {
					return o, true
				}
			}
		}
	}
	if t, ok := s.byVendor[r.Vendor]; ok && r.Vendor != "" {
		if o, ok := s.try(t, r); ok {
			return o, true
		}
	}
	if t := s.byHost(r.Host); t != nil {
		if o, ok := s.try(t, r); ok {
			return o, true
		}
	}
	for _, t := range s.vendors {
		if t.Recognizes(r) {
			if o, ok := s.try(t, r); ok {
				return o, true
			}
		}
	}
	for _, g := range s.generics {
		if o, ok := s.try(g, r); ok {
			return o, true
		}
	}
	if !failure {
		return classify.Outcome{}, false
	}
	o := classify.Outcome{}
	s.fill(&o, r, nil)
	return o, true
}

// Classify translates r and classifies the outcome with the Set's
// classifier; nil when r is a success. The error's Go cause is a
// [*VendorError] with the vendor's own code and message. An outcome no
// mapping explains is handed to the toolerr middleware serving ctx's
// request, which counts it in toolerr.upstream.unmapped, logs it and
// offers it to its sampler: pass the request's context to the outbound
// call (http.NewRequestWithContext(r.Context(), …)).
func (s *Set) Classify(ctx context.Context, r *Raw) *toolerr.Error {
	o, ok := s.Translate(r)
	if !ok {
		return nil
	}
	e := s.classifier.ClassifyCause(ctx, o, newVendorError(o.Vendor, o.Status, o.VendorCode, o.Message))
	if d := s.classifier.Decide(o); d.Unmapped {
		// The middleware serving the request the call was made for (its
		// context is the response's request's) counts, logs and samples
		// it; without one, the classifier's observer is all there is.
		reqscope.ReportUnmapped(ctx, reqscope.UnmappedResponse{Vendor: o.Vendor, VendorCode: o.VendorCode,
			Status: o.Status, Code: d.Code, Header: r.Header, Body: r.Body})
	}
	return e
}

// try runs t on r and completes its outcome.
func (s *Set) try(t Translator, r *Raw) (classify.Outcome, bool) {
	o, ok := t.Translate(r)
	if !ok {
		return classify.Outcome{}, false
	}
	s.fill(&o, r, t)
	return o, true
}

// fill sets what the response itself says: method, status, headers, the
// vendor (the translator's, else the caller's) and idempotency.
func (s *Set) fill(o *classify.Outcome, r *Raw, t Translator) {
	if o.Method == "" {
		o.Method = r.Method
	}
	o.Status = r.Status
	if o.Header == nil {
		o.Header = r.Header
	}
	if o.Vendor == "" && t != nil {
		o.Vendor = t.Vendor()
	}
	if o.Vendor == "" {
		o.Vendor = r.Vendor
	}
	o.Idempotent = o.Idempotent || r.Idempotent
}

// byHost returns the translator whose host suffix host matches, or nil.
func (s *Set) byHost(host string) Translator {
	if host == "" {
		return nil
	}
	for _, h := range s.hosts {
		if host == h.suffix || strings.HasSuffix(host, h.suffix) && host[len(host)-len(h.suffix)-1] == '.' {
			return h.t
		}
	}
	return nil
}

// GenericVendor reports whether name is the vendor name of a built-in
// translator of a common format rather than of a service ("oauth2", whose
// code table scopes the RFC 6749 codes). A response read only by such a
// translator shows no downstream: the middleware attributes it to the
// service itself.
func GenericVendor(name string) bool {
	return name == oauthVendor
}
