package toolerrhuma

import (
	"bytes"
	"encoding/json"
	"strings"
	"sync"

	"github.com/danielgtaylor/huma/v2"
	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/errdocs"
)

// The toolerr problem schema in a huma document: the core's OpenAPI export
// (errdocs.OpenAPI) is the one source; this file only places it
// in huma's schema registry.

// schemaPrefix is where huma's default registry keeps its schemas.
const schemaPrefix = "#/components/schemas/"

// fallbackProblemName names the problem schema when the document already
// has a schema of its own called Problem.
const fallbackProblemName = "ToolerrProblem"

// coreExport is the core's OpenAPI export of the default registry, decoded
// once: the problem schema's members.
var coreExport = sync.OnceValues(func() (map[string]json.RawMessage, error) {
	doc, err := errdocs.OpenAPI(toolerr.Default())
	if err != nil {
		return nil, err
	}
	var d struct {
		Components struct {
			Schemas map[string]json.RawMessage `json:"schemas"`
		} `json:"components"`
	}
	if err := json.Unmarshal(doc, &d); err != nil {
		return nil, err
	}
	var members map[string]json.RawMessage
	if err := json.Unmarshal(d.Components.Schemas[errdocs.OpenAPIProblemSchema], &members); err != nil {
		return nil, err
	}
	return members, nil
})

// newProblemSchema returns the problem schema as a huma schema named name:
// its members kept as the core wrote them (huma's Schema type has no
// $defs), its references pointing at name. Its type is not one huma's
// schema link transformer rewrites.
func newProblemSchema(name string) *huma.Schema {
	members, err := coreExport()
	if err != nil {
		// Not reached: the core's export is built from embedded data.
		return &huma.Schema{Description: "toolerr problem (application/problem+json)"}
	}
	from := []byte(`"` + schemaPrefix + errdocs.OpenAPIProblemSchema + `/`)
	to := []byte(`"` + schemaPrefix + name + `/`)
	ext := make(map[string]any, len(members))
	for k, v := range members {
		if name != errdocs.OpenAPIProblemSchema {
			v = bytes.ReplaceAll(v, from, to)
		}
		ext[k] = json.RawMessage(v)
	}
	return &huma.Schema{Extensions: ext}
}

// isProblem reports whether s is a problem schema this package placed.
func isProblem(s *huma.Schema) bool {
	if s == nil || s.Extensions == nil {
		return false
	}
	_, ok := s.Extensions["$defs"].(json.RawMessage)
	t, _ := s.Extensions["title"].(json.RawMessage)
	return ok && strings.Contains(string(t), "toolerr problem")
}

// problemRef places the problem schema in r, once, and returns the schema
// of an error response: a reference to it, or the schema itself for a
// registry that does not keep schemas under #/components/schemas/.
func problemRef(r huma.Registry) *huma.Schema {
	m := r.Map()
	if m == nil {
		return newProblemSchema(errdocs.OpenAPIProblemSchema)
	}
	name := errdocs.OpenAPIProblemSchema
	if s, ok := m[name]; ok && !isProblem(s) {
		name = fallbackProblemName
	}
	if _, ok := m[name]; !ok {
		m[name] = newProblemSchema(name)
	}
	if r.SchemaFromRef(schemaPrefix+name) == nil {
		return m[name]
	}
	return &huma.Schema{Ref: schemaPrefix + name}
}
