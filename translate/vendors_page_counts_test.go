package translate

import (
	"fmt"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/internal/docpage"
)

// vendorsPage is the page of the vendor translators.
const vendorsPage = "../docs/vendors.md"

// TestVendorsPageCounts: the numbers the vendors page gives for the
// fixtures and the SDK agreement corpus are the corpus's own, so that they
// cannot go stale.
func TestVendorsPageCounts(t *testing.T) {
	fixtures, err := filepath.Glob(filepath.Join(fixtureDir, "*", "*.http"))
	require.NoError(t, err)
	sdkCases, err := filepath.Glob("../testdata/sdkfixtures/*/*.http")
	require.NoError(t, err)
	floor := 0
	for _, f := range agreeFloor {
		floor += f
	}
	docpage.Says(t, vendorsPage,
		fmt.Sprintf("field and vendor; %d in all)", len(fixtures)),
		fmt.Sprintf("Apart from those, %d error responses", len(sdkCases)),
		fmt.Sprintf("agrees with the SDK: %d %% of them", 100*floor/len(sdkCases)))
}
