package toolerr

import (
	"encoding/json"
	"os"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestREADMEShowsTheFourForms renders the README's example error in each
// form and checks that the README shows exactly that.
func TestREADMEShowsTheFourForms(t *testing.T) {
	readme, err := os.ReadFile("README.md")
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
		assert.True(t, strings.Contains(string(readme), form), "the README's %s form is not the rendering:\n%s", name, form)
	}
}
