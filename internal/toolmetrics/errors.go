package toolmetrics

import (
	"context"

	"go.opentelemetry.io/otel/attribute"

	"github.com/toolerr/toolerr"
)

// ErrorAttrs is what the toolerr.errors counter records of one error.
type ErrorAttrs struct {
	Code, Category, Tool, Vendor string
	// Result is the protocol's outcome attribute: the HTTP status
	// (http.response.status_code), the RPC status code, or the MCP method.
	// An invalid (zero) KeyValue adds none.
	Result attribute.KeyValue
}

// errorKey is an ErrorAttrs as a map key.
type errorKey ErrorAttrs

// ToolName returns the gen_ai.tool.name of an error of code naming tool:
// tool, but for a TOOL_NOT_FOUND, whose tool name is the caller's, not
// one of the service's tools, and is no attribute value ("").
func ToolName(code, tool string) string {
	if code == toolerr.CodeToolNotFound {
		return ""
	}
	return tool
}

// Error counts one error returned to a tool caller, its tool name by
// [ToolName].
func (s *Set) Error(ctx context.Context, a ErrorAttrs) {
	a.Tool = ToolName(a.Code, a.Tool)
	s.errors.Add(ctx, 1, s.errAttrs.options(errorKey(a), errorSet)...)
}

// errorSet builds the attributes of one error: the empty tool and vendor
// are left out, as is an invalid Result.
func errorSet(k errorKey) attribute.Set {
	kv := make([]attribute.KeyValue, 0, 5)
	kv = append(kv, KeyErrorType.String(k.Code), KeyCategory.String(k.Category))
	if k.Tool != "" {
		kv = append(kv, KeyToolName.String(k.Tool))
	}
	if k.Vendor != "" {
		kv = append(kv, KeyVendor.String(k.Vendor))
	}
	if k.Result.Valid() {
		kv = append(kv, k.Result)
	}
	return attribute.NewSet(kv...)
}
