package errdocs

import (
	"bytes"
	_ "embed" // the published problem schema
	"encoding/json"
	"fmt"

	"github.com/toolerr/toolerr"
)

// problemSchema is the published JSON Schema of the problem rendering, the
// one source of the Problem schema of [OpenAPI].
//
//go:embed problem.schema.json
var problemSchema []byte

// The names [OpenAPI] gives to its components.
const (
	// OpenAPIProblemSchema is the name of the problem schema under
	// components.schemas.
	OpenAPIProblemSchema = "Problem"
	// OpenAPICodesExtension is the components extension that lists the codes.
	OpenAPICodesExtension = "x-agent-error-codes"
	// OpenAPIFallbacksExtension is the components extension that lists
	// the declared fallbacks of each tool (see [AgentFallback]).
	OpenAPIFallbacksExtension = "x-agent-fallbacks"
)

// openAPIDefsRef is the reference prefix of the problem schema's $defs once
// the schema sits under components.schemas.
const openAPIDefsRef = "#/components/schemas/" + OpenAPIProblemSchema + "/$defs/"

// AgentErrorCode is one entry of the x-agent-error-codes extension of
// [OpenAPI]: how a code is classified, for agent runtimes and
// gateways that read the API description.
type AgentErrorCode struct {
	// Code is the registered code; its response is components.responses.<Code>.
	Code string `json:"code"`
	// Status is the HTTP status of the code's responses.
	Status int `json:"status"`
	// Category is the code's taxonomy category.
	Category toolerr.Category `json:"category"`
	// Severity is the code's severity.
	Severity toolerr.Severity `json:"severity"`
	// Retryable is the code's default retryability.
	Retryable bool `json:"retryable"`
	// Stability is stable, beta or deprecated.
	Stability toolerr.Stability `json:"stability"`
	// Replacement is the code to use instead; deprecated codes only.
	Replacement string `json:"replacement,omitempty"`
	// Removal is the date (YYYY-MM-DD) the code goes away; deprecated codes only.
	Removal string `json:"removal,omitempty"`
}

// OpenAPI renders the codes of r, its parents' included, as a minimal
// OpenAPI 3.1 document in indented JSON whose components a service merges
// into its own API description:
//
//   - components.schemas.Problem: the published problem schema
//     (problem.schema.json, in this package) with its $defs kept in place,
//     its references rewritten to point into the document, and its root
//     $ref moved into allOf;
//   - components.headers: X-Request-Id and Retry-After, as [toolerr.Write]
//     sets them;
//   - components.responses: one response per code, named by the code, whose
//     description is the code's title and whose application/problem+json
//     content has the Problem schema and the code's rendering as example
//     (with [ExampleRequestID]); codes whose errors carry retry_after_ms
//     also reference Retry-After;
//   - components.x-agent-error-codes: one [AgentErrorCode] per code;
//   - components.x-agent-fallbacks, when a tool has fallbacks (see
//     [toolerr.Registry.DeclareFallbacks]): an object whose keys are the tools and
//     whose values list their fallbacks, one [AgentFallback] each, in
//     order of preference. It is left out when no tool declares any.
//
// Codes are in the order of [Markdown]. paths is empty. An
// operation refers to a code's response as
// {"$ref": "#/components/responses/RATE_LIMITED"}.
func OpenAPI(r *toolerr.Registry) ([]byte, error) {
	r = orDefault(r)
	schema, err := openAPIProblemSchema()
	if err != nil {
		return nil, err
	}
	defs := docDefs(r)
	responses := make(map[string]openAPIResponse, len(defs))
	codes := make([]AgentErrorCode, 0, len(defs))
	for _, d := range defs {
		e := exampleError(r, d)
		headers := map[string]openAPIRef{"X-Request-Id": {Ref: "#/components/headers/X-Request-Id"}}
		if renderedMembersOf(e).RetryAfterMS != nil {
			headers["Retry-After"] = openAPIRef{Ref: "#/components/headers/Retry-After"}
		}
		responses[d.Code] = openAPIResponse{
			Description: oneLine(d.Title),
			Headers:     headers,
			Content: map[string]openAPIMedia{toolerr.ContentTypeProblem: {
				Schema:  openAPIRef{Ref: "#/components/schemas/" + OpenAPIProblemSchema},
				Example: json.RawMessage(e.AppendJSON(nil)),
			}},
		}
		c := AgentErrorCode{
			Code: d.Code, Status: d.Status, Category: d.Category, Severity: d.Severity,
			Retryable: d.Retryable, Stability: d.Stability,
		}
		if d.Stability == toolerr.Deprecated {
			c.Replacement, c.Removal = d.Replacement, d.Removal
		}
		codes = append(codes, c)
	}
	doc := openAPIDoc{
		OpenAPI: "3.1.0",
		Info: openAPIInfo{
			Title:       "toolerr error codes",
			Version:     "1.0.0",
			Description: "The error responses of the registered toolerr codes, for merging into an API description.",
		},
		Paths: map[string]any{},
		Components: openAPIComponents{
			Schemas: map[string]json.RawMessage{OpenAPIProblemSchema: schema},
			Headers: map[string]openAPIHeader{
				"X-Request-Id": {
					Description: "Identifies the request; equal to request_id in the body.",
					Schema:      json.RawMessage(`{"type":"string","pattern":"^[A-Za-z0-9._:/-]{1,128}$"}`),
				},
				"Retry-After": {
					Description: "Seconds to wait before retrying, rounded up from retry_after_ms.",
					Schema:      json.RawMessage(`{"type":"integer","minimum":0}`),
				},
			},
			Responses: responses,
			Codes:     codes,
			Fallbacks: agentFallbacks(r), // fallbacks.go
		},
	}
	out, err := json.MarshalIndent(doc, "", "  ")
	if err != nil {
		return nil, fmt.Errorf("errdocs: openapi: %w", err)
	}
	return out, nil
}

// openAPIProblemSchema turns the standalone problem schema into one that
// works under components.schemas: the $schema and $id of a standalone
// resource go (the document's dialect, JSON Schema 2020-12, applies), and
// every "#/$defs/…" reference points at the same $defs under the component.
func openAPIProblemSchema() (json.RawMessage, error) {
	var members map[string]json.RawMessage
	if err := json.Unmarshal(problemSchema, &members); err != nil {
		return nil, fmt.Errorf("errdocs: openapi: problem schema: %w", err)
	}
	delete(members, "$schema")
	delete(members, "$id")
	if ref, ok := members["$ref"]; ok {
		// The root's $ref applies beside its other keywords, as allOf does;
		// tools that resolve a $ref before its siblings cannot resolve one
		// that points into the component holding it.
		var all []json.RawMessage
		if v, ok := members["allOf"]; ok {
			if err := json.Unmarshal(v, &all); err != nil {
				return nil, fmt.Errorf("errdocs: openapi: problem schema allOf: %w", err)
			}
		}
		all = append(all, json.RawMessage(`{"$ref":`+string(ref)+`}`))
		v, err := json.Marshal(all)
		if err != nil {
			return nil, fmt.Errorf("errdocs: openapi: problem schema allOf: %w", err)
		}
		members["allOf"] = v
		delete(members, "$ref")
	}
	for name, v := range members {
		// An unescaped quote only starts a JSON string, so this matches
		// string values that begin with the local $defs pointer: the refs.
		members[name] = bytes.ReplaceAll(v, []byte(`"#/$defs/`), []byte(`"`+openAPIDefsRef))
	}
	out, err := json.Marshal(members)
	if err != nil {
		return nil, fmt.Errorf("errdocs: openapi: problem schema: %w", err)
	}
	return out, nil
}

// The OpenAPI objects that [OpenAPI] writes, in document order.
type (
	openAPIDoc struct {
		OpenAPI    string            `json:"openapi"`
		Info       openAPIInfo       `json:"info"`
		Paths      map[string]any    `json:"paths"`
		Components openAPIComponents `json:"components"`
	}
	openAPIInfo struct {
		Title       string `json:"title"`
		Version     string `json:"version"`
		Description string `json:"description"`
	}
	openAPIComponents struct {
		Schemas   map[string]json.RawMessage `json:"schemas"`
		Headers   map[string]openAPIHeader   `json:"headers"`
		Responses map[string]openAPIResponse `json:"responses"`
		Codes     []AgentErrorCode           `json:"x-agent-error-codes"`
		// Fallbacks is omitted when no tool declares any, so that the
		// document of a registry without fallbacks stays as it was.
		Fallbacks map[string][]AgentFallback `json:"x-agent-fallbacks,omitempty"`
	}
	openAPIHeader struct {
		Description string          `json:"description"`
		Schema      json.RawMessage `json:"schema"`
	}
	openAPIResponse struct {
		Description string                  `json:"description"`
		Headers     map[string]openAPIRef   `json:"headers"`
		Content     map[string]openAPIMedia `json:"content"`
	}
	openAPIMedia struct {
		Schema  openAPIRef      `json:"schema"`
		Example json.RawMessage `json:"example"`
	}
	openAPIRef struct {
		Ref string `json:"$ref"`
	}
)
