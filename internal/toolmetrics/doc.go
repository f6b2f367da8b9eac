// Package toolmetrics holds the instruments of toolerr's serving adapters
// (the HTTP middleware, the MCP adapters, the Connect interceptor): one
// [Set] per adapter, so each of them counts its calls, errors, unmapped
// responses, truncated observations and redactions under the same names
// and attributes.
//
// Attribute names follow the OpenTelemetry semantic conventions v1.40.0
// where one exists: error.type, http.response.status_code, and the GenAI
// execute_tool attribute gen_ai.tool.name (GenAI is in Development status
// there). The rest are toolerr's own, under "toolerr.". Every attribute
// value comes from a bounded set: codes and categories of the registry,
// tool names of the service's routes and adapters, vendor names of the
// translators, HTTP statuses. Past [MaxAttrSets] distinct combinations in
// one instrument, further ones are counted under the single attribute
// otel.metric.overflow=true, as the OpenTelemetry SDK does past its
// cardinality limit, so no request can grow the series without bound.
package toolmetrics
