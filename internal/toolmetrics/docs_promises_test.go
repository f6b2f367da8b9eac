package toolmetrics

import (
	"testing"

	"github.com/toolerr/toolerr/internal/docpage"
)

// TestPageSaysWhatIsCounted: docs/observability.md states the bound and
// the naming rules the tests of this package check.
func TestPageSaysWhatIsCounted(t *testing.T) {
	docpage.Says(t, "../../docs/observability.md",
		"Past 512 attribute combinations in one instrument, further ones count under `otel.metric.overflow=\"true\"`.",
		"semantic conventions **v1.40.0**",
		"one atomic add per call, and reported when the SDK collects",
		"a call of a tool the server does not have counts under no name, and its `TOOL_NOT_FOUND` error without one",
		"a text cut to the sanitizer's output cap counts as a truncated observation (`text`)")
}
