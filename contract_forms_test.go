package toolerr

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// contractPage is the page of the error contract and the observation,
// whose example error these tests render.
const contractPage = "docs/contract.md"

// TestContractPageShowsTheFourForms renders the contract page's example
// error in each form and checks that the page shows exactly that.
func TestContractPageShowsTheFourForms(t *testing.T) {
	page, err := os.ReadFile(contractPage)
	require.NoError(t, err)
	e := typicalValidationError().WithTool("search_orders").WithInstance("/tools/search_orders")
	problem := string(e.AppendJSON(nil))
	text, err := json.Marshal(e.Observation())
	require.NoError(t, err)
	for name, form := range map[string]string{
		"problem+json": problem,
		"envelope":     string(e.AppendEnvelope(nil)),
		"MCP": `{"_meta":{"io.toolerr/problem":` + problem + `},"isError":true,"structuredContent":` + problem +
			`,"content":[{"type":"text","text":` + string(text) + `}]}`,
		"plain":    "```text\n" + e.Observation() + "\n```",
		"markdown": "```markdown\n" + string(e.AppendObservation(nil, ObservationOptions{Markdown: true})) + "\n```",
	} {
		assert.True(t, strings.Contains(string(page), form), "the %s form of %s is not the rendering:\n%s", name, contractPage, form)
	}
}
