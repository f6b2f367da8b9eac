package middleware

import "net/http"

// countCall counts the request as one call of its tool in the
// toolerr.tool.calls counter: under the tool name its error was counted
// under, so that a tool's errors and calls divide; else under the name
// known without a router lookup: the [Tool] adapter that ran, the
// [WithToolName] function, the pattern Go's ServeMux left on r. A request
// that succeeds on a route no adapter names is counted under no tool
// name: finding its route's name (toolname.go) would cost every request a
// router lookup, which a request that succeeds does not pay today.
func (m *handler) countCall(rec *recorder, r *http.Request) {
	if f := rec.fail; f != nil && f.counted {
		m.tel.metrics.Call(f.tool)
		return
	}
	tool := rec.tool
	if tool == "" && m.cfg.toolName != nil {
		tool = m.cfg.toolName(r)
	}
	if tool == "" {
		tool = patternPath(r.Pattern)
	}
	m.tel.metrics.Call(tool)
}
