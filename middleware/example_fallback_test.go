package middleware_test

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/go-chi/chi/v5"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/internal/docpage"
	"github.com/toolerr/toolerr/middleware"
)

// geocode is a tool whose provider is down.
func geocode(w http.ResponseWriter, r *http.Request) error {
	return toolerr.Default().New(toolerr.CodeUpstreamUnavailable, "The geocoding provider is down.")
}

// A tool declares its fallbacks where it is mounted: a failure they cover
// offers them in actions and in the hint (docs/fallbacks.md).
func ExampleWithFallbacks() {
	r := chi.NewRouter()
	r.Use(middleware.New(
		middleware.WithFallbacks("geocode",
			toolerr.Fallback{Tool: "geocode_backup", On: []toolerr.Category{toolerr.CategoryTransient, toolerr.CategoryRateLimit, toolerr.CategoryUpstream}},
			toolerr.Fallback{Tool: "search_places", On: []toolerr.Category{toolerr.CategoryNotFound}},
		),
	))
	r.Get("/tools/geocode", middleware.ToolFunc("geocode", geocode))

	rec := httptest.NewRecorder()
	r.ServeHTTP(rec, httptest.NewRequest("GET", "/tools/geocode?q=Harbor", nil))
	e, _ := toolerr.Parse(rec.Body.Bytes())
	fmt.Println(e.Code, e.Actions)
	fmt.Println(e.Hint)
	fmt.Println(toolerr.FallbackTools(e))
	// Output:
	// UPSTREAM_UNAVAILABLE [use_fallback:geocode_backup]
	// Let the orchestrator retry with backoff; do not change the arguments. If it keeps failing, call geocode_backup instead.
	// [geocode_backup]
}

// TestFallbacksPageShowsTheExample: docs/fallbacks.md shows the example's
// router and quotes what ExampleWithFallbacks prints, the action and the
// end of the hint; the Example's output pins the code to the same words.
func TestFallbacksPageShowsTheExample(t *testing.T) {
	docpage.Says(t, "../docs/fallbacks.md",
		"r.Get(\"/tools/geocode\", middleware.ToolFunc(\"geocode\", geocode))",
		"The geocoder's `UPSTREAM_UNAVAILABLE` then reads `\"actions\": [\"use_fallback:geocode_backup\"]` and its hint ends \"If it keeps failing, call geocode_backup instead.\"")
}
