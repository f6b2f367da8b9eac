package toolerrhuma

import (
	"encoding/json"
	"net/http"
	"slices"
	"strconv"

	"github.com/danielgtaylor/huma/v2"
	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/errdocs"
)

// The OpenAPI document: each operation lists the codes its errors can
// carry in toolerr's x-agent-error-codes extension, and the components hold
// the problem schema, one response per code and the registry's codes.

// document adds the toolerr components to oapi, lists the codes of every
// operation already in it, and of every operation added later.
func (in *installation) document(oapi *huma.OpenAPI) {
	if oapi == nil {
		return
	}
	if oapi.Components == nil {
		oapi.Components = &huma.Components{}
	}
	c := oapi.Components
	var problem *huma.Schema
	if c.Schemas != nil {
		problem = problemRef(c.Schemas)
	} else {
		problem = newProblemSchema(errdocs.OpenAPIProblemSchema)
	}
	if c.Responses == nil {
		c.Responses = map[string]*huma.Response{}
	}
	codes := make([]errdocs.AgentErrorCode, 0, 64)
	for _, d := range in.cfg.registry.Defs() {
		codes = append(codes, agentCode(d))
		if _, ok := c.Responses[d.Code]; ok {
			continue
		}
		c.Responses[d.Code] = &huma.Response{
			Description: d.Title,
			Content: map[string]*huma.MediaType{toolerr.ContentTypeProblem: {
				Schema:  problem,
				Example: json.RawMessage(in.cfg.registry.New(d.Code, "").WithRequestID(errdocs.ExampleRequestID).AppendJSON(nil)),
			}},
		}
	}
	if c.Extensions == nil {
		c.Extensions = map[string]any{}
	}
	c.Extensions[errdocs.OpenAPICodesExtension] = codes
	for _, item := range oapi.Paths {
		for _, op := range []*huma.Operation{item.Get, item.Put, item.Post, item.Delete,
			item.Options, item.Head, item.Patch, item.Trace} {
			if op != nil {
				in.checkReach(op, "before Install")
				in.document1(op)
			}
		}
	}
	oapi.OnAddOperation = append(oapi.OnAddOperation, in.documentOperation)
}

// documentOperation is the OnAddOperation hook of the document: it
// documents op and checks that it was registered on the API Install
// returned (reach.go).
func (in *installation) documentOperation(_ *huma.OpenAPI, op *huma.Operation) {
	in.checkReach(op, "on the API passed to Install")
	in.document1(op)
}

// document1 lists op's codes in its x-agent-error-codes and gives every
// status they answer with a response, where op has none.
func (in *installation) document1(op *huma.Operation) {
	codes := in.operationCodes(op)
	list := make([]errdocs.AgentErrorCode, 0, len(codes))
	for _, code := range codes {
		d, ok := in.cfg.registry.Lookup(code)
		if !ok {
			continue
		}
		list = append(list, agentCode(d))
		if op.Responses == nil {
			op.Responses = map[string]*huma.Response{}
		}
		status := strconv.Itoa(d.Status)
		if _, ok := op.Responses[status]; !ok {
			op.Responses[status] = &huma.Response{Ref: "#/components/responses/" + code}
		}
	}
	dropStale(op, list)
	if op.Extensions == nil {
		op.Extensions = map[string]any{}
	}
	op.Extensions[errdocs.OpenAPICodesExtension] = list
}

// dropStale removes the error responses huma documented for statuses no
// code of op answers with (huma's 422 is VALIDATION_FAILED's 400): those
// whose only content is the problem schema, as huma's constructor made
// them. A response the service wrote itself stays.
func dropStale(op *huma.Operation, list []errdocs.AgentErrorCode) {
	for k, r := range op.Responses {
		s, err := strconv.Atoi(k)
		if err != nil || s < http.StatusBadRequest || r == nil || len(r.Content) != 1 {
			continue
		}
		mt := r.Content[toolerr.ContentTypeProblem]
		if mt == nil || mt.Schema == nil || mt.Example != nil || (mt.Schema.Ref == "" && !isProblem(mt.Schema)) {
			continue
		}
		if mt.Schema.Ref != "" && mt.Schema.Ref != schemaPrefix+errdocs.OpenAPIProblemSchema &&
			mt.Schema.Ref != schemaPrefix+fallbackProblemName {
			continue
		}
		if !slices.ContainsFunc(list, func(c errdocs.AgentErrorCode) bool { return c.Status == s }) {
			delete(op.Responses, k)
		}
	}
}

// operationCodes returns the codes op's errors can carry, sorted: the ones
// op declares (x-agent-error-codes as a list of codes, set before
// registration), the codes of the error statuses it declares (Errors and
// its responses), VALIDATION_FAILED when it takes parameters or a body,
// PAYLOAD_TOO_LARGE when it takes a body, and INTERNAL_ERROR, which any
// operation can answer.
func (in *installation) operationCodes(op *huma.Operation) []string {
	codes := []string{toolerr.CodeInternal}
	switch declared := op.Extensions[errdocs.OpenAPICodesExtension].(type) {
	case []string:
		codes = append(codes, declared...)
	case []errdocs.AgentErrorCode:
		for _, c := range declared {
			codes = append(codes, c.Code)
		}
	}
	for _, s := range op.Errors {
		if c := classify.LocalCode(s); c != "" {
			codes = append(codes, c)
		}
	}
	for k := range op.Responses {
		if s, err := strconv.Atoi(k); err == nil && s >= http.StatusBadRequest {
			codes = append(codes, classify.LocalCode(s))
		}
	}
	if len(op.Parameters) > 0 || op.RequestBody != nil {
		codes = append(codes, toolerr.CodeValidationFailed)
	}
	if op.RequestBody != nil {
		codes = append(codes, toolerr.CodePayloadTooLarge)
	}
	slices.Sort(codes)
	return slices.Compact(codes)
}

// agentCode is d's entry of x-agent-error-codes.
func agentCode(d toolerr.Def) errdocs.AgentErrorCode {
	c := errdocs.AgentErrorCode{Code: d.Code, Status: d.Status, Category: d.Category,
		Severity: d.Severity, Retryable: d.Retryable, Stability: d.Stability}
	if d.Stability == toolerr.Deprecated {
		c.Replacement, c.Removal = d.Replacement, d.Removal
	}
	return c
}
