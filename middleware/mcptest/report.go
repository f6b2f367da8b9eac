package mcptest

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/mcptool"
)

// metaProblem is the _meta key of a failed call's problem object.
const metaProblem = mcptool.MetaProblem

// report is what a case's check gets: the outcomes of its calls, in the
// order of its calls, and the group's server with everything it sent and
// recorded.
type report struct {
	*rig
	outs      []outcome
	listing   []map[string]any
	stateless bool
	caller    caller
}

// anonymous reports whether nothing tells the server who the client is,
// so that idempotency refuses its keys and does not guard its repeats.
func (r *report) anonymous() bool { return r.caller == callerAnonymous }

// failed checks what every failed call must be, as a model sees it, and
// returns its problem object:
//
//   - the client returned a result (a protocol error, or a TypeScript SDK
//     that throws on it, reaches no model), marked isError;
//   - its one text content is the observation of the problem object,
//     complete, since agent runtimes drop _meta and structuredContent of an
//     error result; the problem object is in _meta (metaProblem)
//     and keeps toolerr's contract; it is the structuredContent too exactly
//     when the tool declares no outputSchema;
//   - no secret, internal address, stack trace or HTML anywhere in it;
//   - its ids are those of the POST that carried it, and the failure was
//     recorded once in the log and on a span (telemetry.go).
func (r *report) failed(t *testing.T, i int) map[string]any {
	t.Helper()
	o := r.outs[i]
	name := o.call.tool
	require.Empty(t, o.threw, "%s: the client threw instead of returning the tool error", name)
	res := o.result
	require.NotNil(t, res, "%s: no result", name)
	assertCleanValue(t, name+": result", res)
	assert.Equal(t, true, res["isError"], "%s: isError", name)
	meta, _ := res["_meta"].(map[string]any)
	p, ok := meta[metaProblem].(map[string]any)
	require.True(t, ok, "%s: _meta[%q] holds the problem object: %v", name, metaProblem, res)
	raw, err := json.Marshal(p)
	require.NoError(t, err)
	require.NoError(t, toolerr.Validate(raw), "%s: the problem object keeps toolerr's contract: %s", name, raw)
	e, err := toolerr.Parse(raw)
	require.NoError(t, err, "%s: %s", name, raw)
	assertSameObservation(t, name, string(e.AppendObservation(nil, toolerr.ObservationOptions{})), r.text(t, i))
	sc, has := res["structuredContent"]
	if r.tools[name].OutputSchema != nil {
		assert.False(t, has, "%s declares an outputSchema: a problem object in structuredContent would break it "+
			"(the TypeScript SDK throws on it): %v", name, sc)
	} else {
		assert.Equal(t, p, sc, "%s declares no outputSchema: structuredContent is the problem object", name)
	}
	r.assertCallIDs(t, i, p)
	r.assertRecorded(t, p)
	return p
}

// succeeded checks that call i got a successful result, with no problem
// object, and returns it.
func (r *report) succeeded(t *testing.T, i int) map[string]any {
	t.Helper()
	o := r.outs[i]
	require.Empty(t, o.threw, "%s: the client threw", o.call.tool)
	require.NotNil(t, o.result, o.call.tool)
	require.NotEqual(t, true, o.result["isError"], "%s failed: %v", o.call.tool, o.result)
	meta, _ := o.result["_meta"].(map[string]any)
	assert.NotContains(t, meta, metaProblem, "%s: a success carries no problem object", o.call.tool)
	return o.result
}

// text returns the one text content of call i's result.
func (r *report) text(t *testing.T, i int) string {
	t.Helper()
	o := r.outs[i]
	content, _ := o.result["content"].([]any)
	require.Len(t, content, 1, "%s: one content item, the text a model reads: %v", o.call.tool, o.result)
	item, _ := content[0].(map[string]any)
	require.Equal(t, "text", item["type"], "%s: %v", o.call.tool, item)
	text, ok := item["text"].(string)
	require.True(t, ok, "%s: %v", o.call.tool, item)
	return text
}

// assertSameObservation checks that got, the text a client got, is want,
// the observation rendered from the problem object it got: line by line,
// a JSON value compared as a value (a Go struct's keys come in field
// order, a decoded object's sorted).
func assertSameObservation(t *testing.T, tool, want, got string) {
	t.Helper()
	wl, gl := strings.Split(want, "\n"), strings.Split(got, "\n")
	if len(wl) != len(gl) {
		assert.Equal(t, want, got, "%s: the text content is the observation of the problem object", tool)
		return
	}
	for i := range wl {
		if wl[i] == gl[i] {
			continue
		}
		wk, wv, _ := strings.Cut(wl[i], ": ")
		gk, gv, _ := strings.Cut(gl[i], ": ")
		var wj, gj any
		if wk != gk || json.Unmarshal([]byte(wv), &wj) != nil || json.Unmarshal([]byte(gv), &gj) != nil {
			assert.Equal(t, want, got, "%s: the text content is the observation of the problem object (line %d)", tool, i+1)
			return
		}
		assert.Equal(t, wj, gj, "%s: line %d of the text content (%s)", tool, i+1, wk)
	}
}

// assertCallIDs checks that p carries the ids of the one POST that carried
// call i: request_id is the POST's X-Request-Id, trace_id the trace of its
// server span.
func (r *report) assertCallIDs(t *testing.T, i int, p map[string]any) {
	t.Helper()
	tool := r.outs[i].call.tool
	ex := r.exchangeOf(t, i)
	id := ex.requestID()
	require.True(t, toolerr.ValidRequestID(id), "%s: the POST's X-Request-Id %q", tool, id)
	assert.Equal(t, id, p["request_id"], "%s: request_id is the X-Request-Id of the POST that carried the call", tool)
	trace, _ := ex.trace()
	require.True(t, toolerr.ValidTraceID(trace), "%s: the POST's server span", tool)
	assert.Equal(t, trace, p["trace_id"], "%s: trace_id is the trace of the server span of the POST that carried the call", tool)
}

// exchangeOf returns the one exchange that carried call i: one POST
// carried each call of the group with its tool and arguments, in the
// order of the calls, and the one in call i's place carried its
// idempotency key in _meta, or none.
func (r *report) exchangeOf(t *testing.T, i int) *exchange {
	t.Helper()
	c := r.outs[i].call
	exs := r.wire.callOf(c.tool, c.args)
	require.Len(t, exs, c.same, "%s: one POST carried each call with these arguments", c.tool)
	ex := exs[c.nth]
	var want any
	if c.key != "" {
		want = c.key
	}
	require.Equal(t, want, ex.idempotencyKey(), "%s: the POST carried the call's idempotency key in _meta", c.tool)
	return ex
}

// str returns m[k] as a string, "" when it is none.
func str(m map[string]any, k string) string {
	s, _ := m[k].(string)
	return s
}

// object returns m[k] as a JSON object, nil when it is none.
func object(m map[string]any, k string) map[string]any {
	o, _ := m[k].(map[string]any)
	return o
}

// jsonValue decodes s, for comparing with decoded JSON.
func jsonValue(t testing.TB, s string) any {
	t.Helper()
	var v any
	require.NoError(t, json.Unmarshal([]byte(s), &v), s)
	return v
}
