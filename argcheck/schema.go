package argcheck

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"net/url"
	"reflect"
	"strings"

	"github.com/google/jsonschema-go/jsonschema"
	validator "github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/toolerr/toolerr"
)

// schemaURL is the location the compiled schema is known by; the
// fragments of its errors' SchemaURLs are JSON pointers into the document.
const schemaURL = "urn:toolerr:arguments"

// DefaultMaxBytes is the largest request body [Schema.Middleware] and
// [Decode] read: 1 MiB.
const DefaultMaxBytes = 1 << 20

// Schema is a tool's compiled argument schema. It is safe for concurrent use.
type Schema struct {
	compiled *validator.Schema
	doc      any // the schema document, numbers as json.Number, to read keywords
	registry *toolerr.Registry
	maxBytes int64
}

// Option configures [Compile] and [For].
type Option func(*Schema)

// WithRegistry sets the registry VALIDATION_FAILED and PAYLOAD_TOO_LARGE
// are built from. Default: [toolerr.Default].
func WithRegistry(r *toolerr.Registry) Option {
	return func(s *Schema) {
		if r != nil {
			s.registry = r
		}
	}
}

// WithMaxBytes sets the largest body [Schema.Middleware] and [Decode] read;
// a larger one is PAYLOAD_TOO_LARGE. Default: [DefaultMaxBytes].
func WithMaxBytes(n int64) Option {
	return func(s *Schema) {
		if n > 0 {
			s.maxBytes = n
		}
	}
}

// Compile compiles a tool's input schema: a JSON Schema document as []byte
// or json.RawMessage, or any value that marshals to one (a map, an MCP
// tool's InputSchema, a *jsonschema.Schema of google/jsonschema-go).
// Draft 2020-12 applies unless the document names another with $schema;
// formats are asserted. References resolve within the document only: no
// file or network is read. A schema that does not compile is an error.
func Compile(schema any, opts ...Option) (*Schema, error) {
	raw, err := schemaBytes(schema)
	if err != nil {
		return nil, err
	}
	doc, err := validator.UnmarshalJSON(bytes.NewReader(raw))
	if err != nil {
		return nil, fmt.Errorf("argcheck: schema is not JSON: %w", err)
	}
	c := validator.NewCompiler()
	c.DefaultDraft(validator.Draft2020)
	c.AssertFormat()
	c.UseLoader(noLoader{})
	if err := c.AddResource(schemaURL, doc); err != nil {
		return nil, fmt.Errorf("argcheck: %w", err)
	}
	compiled, err := c.Compile(schemaURL)
	if err != nil {
		return nil, fmt.Errorf("argcheck: schema does not compile: %w", err)
	}
	s := &Schema{compiled: compiled, doc: doc, registry: toolerr.Default(), maxBytes: DefaultMaxBytes}
	for _, o := range opts {
		if o != nil {
			o(s)
		}
	}
	return s, nil
}

// For derives the schema of T's JSON form as the MCP SDK's mcp.AddTool
// does (jsonschema.ForType of google/jsonschema-go, pointers dereferenced:
// struct fields without omitempty are required, unknown properties are
// not allowed) and compiles it with [Compile]. Use a JSON Schema with
// [Compile] for what struct tags cannot say: ranges, enums, formats.
func For[T any](opts ...Option) (*Schema, error) {
	t := reflect.TypeFor[T]()
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	derived, err := jsonschema.ForType(t, &jsonschema.ForOptions{})
	if err != nil {
		return nil, fmt.Errorf("argcheck: schema of %v: %w", t, err)
	}
	return Compile(derived, opts...)
}

// schemaBytes returns the JSON document of schema.
func schemaBytes(schema any) ([]byte, error) {
	switch v := schema.(type) {
	case nil:
		return nil, errors.New("argcheck: no schema")
	case []byte:
		return v, nil
	case json.RawMessage:
		return v, nil
	case string:
		return []byte(v), nil
	}
	raw, err := json.Marshal(schema)
	if err != nil {
		return nil, fmt.Errorf("argcheck: schema does not marshal to JSON: %w", err)
	}
	return raw, nil
}

// noLoader refuses every URL: a tool's schema is one document, and
// compiling it reads no file and no network. The validator's own
// metaschemas are built in.
type noLoader struct{}

// Load refuses url.
func (noLoader) Load(url string) (any, error) {
	return nil, fmt.Errorf("argcheck: %s is outside the schema document; only references within it resolve", url)
}

// node returns the object of the schema document at location, a schema
// URL as the validator reports it, following one local $ref; nil when
// there is none.
func (s *Schema) node(location string) map[string]any {
	_, frag, _ := strings.Cut(location, "#")
	v, ok := lookup(s.doc, frag)
	if !ok {
		// The validator percent-encodes what a URL fragment cannot hold
		// ("a b" as "a%20b").
		unescaped, err := url.PathUnescape(frag)
		if err != nil {
			return nil
		}
		if v, ok = lookup(s.doc, unescaped); !ok {
			return nil
		}
	}
	m, _ := v.(map[string]any)
	return s.deref(m)
}

// deref follows m's $ref when it points into the document, once.
func (s *Schema) deref(m map[string]any) map[string]any {
	ref, ok := m["$ref"].(string)
	if !ok || !strings.HasPrefix(ref, "#") {
		return m
	}
	if v, ok := lookup(s.doc, ref[1:]); ok {
		if target, ok := v.(map[string]any); ok {
			return target
		}
	}
	return m
}

// property returns the schema of the property name of the object schema
// m, its $ref followed; nil when m does not declare it.
func (s *Schema) property(m map[string]any, name string) map[string]any {
	props, _ := m["properties"].(map[string]any)
	p, _ := props[name].(map[string]any)
	if p == nil {
		return nil
	}
	return s.deref(p)
}
