package toolerr

import "testing"

// BenchmarkOfferFallbacks: the common path (the tool declares no
// fallback, or none covers the failure) costs a lookup and no allocation;
// an offer copies the error once and builds its actions and hint.
func BenchmarkOfferFallbacks(b *testing.B) {
	r := NewRegistry(Default())
	if err := r.DeclareFallbacks("geocode",
		Fallback{Tool: "geocode_backup", On: []Category{CategoryTransient, CategoryUpstream}},
		Fallback{Tool: "queue_geocode", On: []Category{CategoryTransient}, Mutates: true}); err != nil {
		b.Fatal(err)
	}
	undeclared := r.New(CodeUpstreamUnavailable, "").WithTool("route")
	uncovered := r.New(CodeValidationFailed, "").WithTool("geocode")
	covered := r.New(CodeUpstreamUnavailable, "").WithTool("geocode")
	for _, bc := range []struct {
		name string
		e    *Error
	}{{"undeclared", undeclared}, {"uncovered", uncovered}, {"offered", covered}} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				_ = r.OfferFallbacks(bc.e, FallbackCall{Mutating: true})
			}
		})
	}
}
