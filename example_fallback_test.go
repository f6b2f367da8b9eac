package toolerr_test

import (
	"fmt"

	"github.com/toolerr/toolerr"
)

// A geocoder declares a backup for the failures the backup can absorb; a
// failure of the geocoder offers it, and a Go orchestrator reads it back.
func ExampleRegistry_DeclareFallbacks() {
	reg := toolerr.NewRegistry(toolerr.Default())
	err := reg.DeclareFallbacks("geocode",
		toolerr.Fallback{Tool: "geocode_backup", On: []toolerr.Category{toolerr.CategoryTransient, toolerr.CategoryRateLimit, toolerr.CategoryUpstream}},
		toolerr.Fallback{Tool: "search_places", On: []toolerr.Category{toolerr.CategoryNotFound}},
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	failed := reg.New(toolerr.CodeUpstreamUnavailable, "").WithTool("geocode")
	offered := reg.OfferFallbacks(failed, toolerr.FallbackCall{})
	fmt.Println(offered.Actions)
	fmt.Println(toolerr.FallbackTools(offered))
	// Output:
	// [use_fallback:geocode_backup]
	// [geocode_backup]
}

// A mutating fallback is not offered when the failed write may have run
// and carried no idempotency key: a second write by another tool could
// do the work twice.
func ExampleRegistry_OfferFallbacks() {
	reg := toolerr.NewRegistry(toolerr.Default())
	_ = reg.DeclareFallbacks("charge",
		toolerr.Fallback{Tool: "charge_backup", On: []toolerr.Category{toolerr.CategoryUpstream, toolerr.CategoryTransient}, Mutates: true},
		toolerr.Fallback{Tool: "charge_status", On: []toolerr.Category{toolerr.CategoryUpstream, toolerr.CategoryTransient}},
	)
	timeout := reg.New(toolerr.CodeUpstreamTimeout, "").WithTool("charge")

	keyless := reg.OfferFallbacks(timeout, toolerr.FallbackCall{Mutating: true})
	keyed := reg.OfferFallbacks(timeout, toolerr.FallbackCall{Mutating: true, Idempotent: true})
	fmt.Println(toolerr.FallbackTools(keyless))
	fmt.Println(toolerr.FallbackTools(keyed))
	// Output:
	// [charge_status]
	// [charge_backup charge_status]
}
