package mcpcore

import (
	"context"
	"fmt"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/argcheck"
)

// maxNearTools bounds the tool names an unknown tool's error offers.
const maxNearTools = 5

// maxShownName bounds the length of an unknown name the detail repeats.
const maxShownName = 128

// UnknownTool returns the failure of a call of name, a tool the server
// does not have, whose tools are known: TOOL_NOT_FOUND on the field
// "name", with the known tools nearest to name as allowed_values and, when
// exactly one is plausibly meant (argcheck.NearestNames), that one as
// suggested_value. The call is never redirected to it: the agent decides.
// A name near no tool gets no values: the list is never padded with
// unrelated tools.
func (c *Core) UnknownTool(ctx context.Context, name string, known []string) *Failure {
	e := c.Registry.New(toolerr.CodeToolNotFound, "").WithField("name")
	if shown := []rune(name); len(shown) <= maxShownName {
		e = e.WithDetail(fmt.Sprintf("No tool is named %q.", name)) // sanitized by Rejected
	}
	near, suggested := argcheck.NearestNames(name, known, maxNearTools)
	if len(near) > 0 {
		e = e.WithAllowedValues(near)
	}
	if suggested != "" {
		e = e.WithSuggestedValue(suggested)
	}
	// The error names no tool: the one called does not exist, and its
	// name, the client's, is only the value that failed.
	return c.Rejected(ctx, Call{}, e)
}
