package mcptest

import (
	"context"
	"encoding/json"
	"errors"
	"testing"

	"github.com/stretchr/testify/assert"
	"go.opentelemetry.io/otel/codes"

	"github.com/toolerr/toolerr"
)

// caseCallIDs: every call of a session gets the ids of the POST that
// carried it (the per-call checks of report.failed), so each call's
// request id and trace id are its own: never another call's, never those
// of the request that opened the session, never the handler's own.
func caseCallIDs() *testCase {
	tool := failing("ids_fail", func() error {
		return toolerr.Default().New(toolerr.CodeNotFound, "No order ord_8f3a2b91.").WithRequestID("handler-own-77")
	})
	tool.InputSchema = noteSchema
	notes := []string{`{"note":"one"}`, `{"note":"two"}`, `{"note":"three"}`}
	return &testCase{
		name:  "ids/each call carries the ids of its own POST",
		tools: []Tool{tool},
		calls: []call{callOf("ids_fail", notes[0]), callOf("ids_fail", notes[1]), callOf("ids_fail", notes[2])},
		check: func(t *testing.T, r *report) {
			ids, traces := map[string]bool{}, map[string]bool{}
			for i := range notes {
				p := r.failed(t, i)
				ids[str(p, "request_id")], traces[str(p, "trace_id")] = true, true
			}
			assert.Len(t, ids, len(notes), "one request id per call")
			assert.Len(t, traces, len(notes), "one trace per call")
			assert.NotContains(t, ids, "handler-own-77", "the handler's own request id")
			calls := map[*exchange]bool{}
			for i := range notes {
				calls[r.exchangeOf(t, i)] = true
			}
			for _, ex := range r.wire.exchanges() {
				if !calls[ex] {
					assert.NotContains(t, ids, ex.requestID(), "a call carries the id of another request of the session (%s)", ex.method)
				}
			}
		},
	}
}

// caseTelemetry: each failed call is one toolerr.error span (with
// toolerr.code, toolerr.category and, for a failure of the server's side,
// error.type and the Error status), one count of toolerr.errors by
// error.type and gen_ai.tool.name, and one log record whose cause is redacted.
func caseTelemetry() *testCase {
	tool := newTool("telemetry_fail", func(_ context.Context, args json.RawMessage) (any, error) {
		var in struct{ Note string }
		_ = json.Unmarshal(args, &in)
		if in.Note == "go" {
			return nil, errors.New("ledger write failed: " + secretPassword)
		}
		return nil, toolerr.Default().New(toolerr.CodeNotFound, "No order ord_8f3a2b91.")
	})
	tool.InputSchema = noteSchema
	return &testCase{
		name:  "telemetry/one span, one count and one log record per failure",
		tools: []Tool{tool},
		calls: []call{callOf("telemetry_fail", `{"note":"a"}`), callOf("telemetry_fail", `{"note":"b"}`), callOf("telemetry_fail", `{"note":"go"}`)},
		check: func(t *testing.T, r *report) {
			for i := range 3 {
				p := r.failed(t, i)
				if i == 2 {
					assert.Contains(t, r.logOf(t, p)["cause"], "ledger write failed: password=", "the operator's cause, redacted")
				}
			}
			var spans int
			for _, s := range r.spans.Ended() {
				attrs := spanAttributes(s)
				if s.Name() != errorSpanName || attrs["gen_ai.tool.name"] != "telemetry_fail" {
					continue
				}
				spans++
				if attrs["toolerr.code"] == toolerr.CodeInternal {
					assert.Equal(t, toolerr.CodeInternal, attrs["error.type"], "a failure of the server's side")
					assert.Equal(t, codes.Error, s.Status().Code)
				} else {
					assert.NotContains(t, attrs, "error.type", "a client's failure is no error of the server")
					assert.NotEqual(t, codes.Error, s.Status().Code)
				}
			}
			assert.Equal(t, 3, spans, "one %s span per failure", errorSpanName)
			got := map[string]int64{}
			for k, n := range r.counted(t) {
				if k.tool == "telemetry_fail" {
					got[k.code] += n
				}
			}
			assert.Equal(t, map[string]int64{toolerr.CodeNotFound: 2, toolerr.CodeInternal: 1}, got, "toolerr.errors of telemetry_fail by error.type")
		},
	}
}
