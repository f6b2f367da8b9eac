package translate

import (
	"fmt"
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestReadmeCounts: the numbers the README gives for the fixtures and the
// SDK agreement corpus are the corpus's own, so that they cannot go stale.
func TestReadmeCounts(t *testing.T) {
	readme, err := os.ReadFile("../README.md")
	require.NoError(t, err)
	fixtures, err := filepath.Glob(filepath.Join(fixtureDir, "*", "*.http"))
	require.NoError(t, err)
	sdkCases, err := filepath.Glob("../testdata/sdkfixtures/*/*.http")
	require.NoError(t, err)
	floor := 0
	for _, f := range agreeFloor {
		floor += f
	}
	for _, want := range []string{
		fmt.Sprintf("field and vendor; %d in all)", len(fixtures)),
		fmt.Sprintf("Apart from those, %d error responses", len(sdkCases)),
		fmt.Sprintf("agrees with the SDK: %d %% of them", 100*floor/len(sdkCases)),
	} {
		assert.Contains(t, string(readme), want)
	}
}
