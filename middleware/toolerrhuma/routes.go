package toolerrhuma

import (
	"maps"
	"net/http"
	"slices"
	"strings"

	"github.com/danielgtaylor/huma/v2"
)

// Routes returns a middleware.WithToolRoutes function that lists the
// operations of api's OpenAPI document, "METHOD /path" ("GET
// /orders/{id}"), for the TOOL_NOT_FOUND of a path no route matches to
// name the nearest operations. humago's ServeMux cannot list its patterns,
// so give them with Routes:
//
//	mux := http.NewServeMux()
//	api := toolerrhuma.Install(humago.New(mux, huma.DefaultConfig("Orders", "1.0.0")))
//	handler := middleware.New(middleware.WithToolRoutes(toolerrhuma.Routes(api)))(mux)
//
// Behind humachi the middleware lists chi's routes without it (huma's own
// /docs and /openapi.json among them); Routes lists the operations only.
// A first server whose URL is a path ("/api", as humago.NewWithPrefix
// sets it) prefixes every path; an absolute server URL is the address of
// a gateway, and is left out. The document is read when such an error
// happens: register operations before the API serves, as huma expects.
func Routes(api huma.API) func() []string {
	return func() []string {
		oapi := api.OpenAPI()
		prefix := ""
		if len(oapi.Servers) > 0 && oapi.Servers[0] != nil && strings.HasPrefix(oapi.Servers[0].URL, "/") {
			prefix = strings.TrimSuffix(oapi.Servers[0].URL, "/")
		}
		var out []string
		for _, path := range slices.Sorted(maps.Keys(oapi.Paths)) {
			item := oapi.Paths[path]
			if item == nil {
				continue
			}
			for _, op := range []struct {
				method string
				op     *huma.Operation
			}{
				{http.MethodGet, item.Get}, {http.MethodPut, item.Put}, {http.MethodPost, item.Post},
				{http.MethodDelete, item.Delete}, {http.MethodOptions, item.Options},
				{http.MethodHead, item.Head}, {http.MethodPatch, item.Patch}, {http.MethodTrace, item.Trace},
			} {
				if op.op != nil && !op.op.Hidden {
					out = append(out, op.method+" "+prefix+path)
				}
			}
		}
		return out
	}
}
