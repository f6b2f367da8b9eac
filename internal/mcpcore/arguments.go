package mcpcore

import (
	"bytes"
	"encoding/json"
	"sync"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/argcheck"
)

// maxCachedSchemas bounds the input schemas a core keeps compiled; past it
// the cache starts over.
const maxCachedSchemas = 1024

// schemaCache holds the compiled input schemas of the tools whose calls
// failed, by tool name, with the schema they were compiled from: a tool
// replaced under the same name is compiled again. Safe for concurrent use.
type schemaCache struct {
	mu      sync.Mutex
	schemas map[string]cachedSchema
}

// cachedSchema is one entry of a schemaCache.
type cachedSchema struct {
	source []byte
	schema *argcheck.Schema // nil when the source does not compile
}

// Schema returns the compiled input schema of tool, whose JSON Schema is
// input, or nil when input does not compile. It is meant for the failure
// path: the first failure of a tool compiles its schema.
func (c *Core) Schema(tool string, input []byte) *argcheck.Schema {
	c.schemas.mu.Lock()
	cached, ok := c.schemas.schemas[tool]
	c.schemas.mu.Unlock()
	if ok && bytes.Equal(cached.source, input) {
		return cached.schema
	}
	s, err := argcheck.Compile(input, argcheck.WithRegistry(c.Registry))
	if err != nil {
		s = nil
	}
	c.schemas.mu.Lock()
	if c.schemas.schemas == nil || len(c.schemas.schemas) >= maxCachedSchemas {
		c.schemas.schemas = make(map[string]cachedSchema)
	}
	c.schemas.schemas[tool] = cachedSchema{source: bytes.Clone(input), schema: s}
	c.schemas.mu.Unlock()
	return s
}

// ArgumentsError returns the VALIDATION_FAILED of package argcheck for
// args, the arguments of a call of tool that a library rejected (cause,
// kept as the Go cause), when they break input, the tool's input schema:
// every violation, its pointer, allowed values and repair, and
// example_request. When the schema does not compile, or the arguments pass
// it (the validators disagree, or the type could not hold a value), the
// error is argcheck's TypeMismatch of cause: VALIDATION_FAILED all the
// same, since the library rejected the arguments.
func (c *Core) ArgumentsError(tool string, input []byte, args json.RawMessage, cause error) *toolerr.Error {
	var e *toolerr.Error
	if s := c.Schema(tool, input); s != nil {
		e, _ = toolerr.From(s.CheckJSON(args))
	}
	if e == nil {
		e = argcheck.TypeMismatch(c.Registry, cause)
	}
	return e.WithCause(cause)
}
