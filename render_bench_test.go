package toolerr

import (
	"encoding/json"
	"testing"
	"time"
)

// benchError is a fully populated error, as a tool with a validation failure
// behind an upstream call would return.
func benchError() *Error {
	return Default().New(CodeRateLimited, "The carrier API allows 10 label requests per second; this call was the 11th.").
		WithRetryAfter(1500 * time.Millisecond).
		WithField("shipments/3/weight_kg").
		WithAllowedValues(Range{Minimum: 0.1, Maximum: 70}).
		WithSuggestedValue(70).
		WithDetails(map[string]any{"upstream_code": "rate_limited", "window_ms": 1000, "limit": 10}).
		WithTool("create_shipment_label").
		WithUpstream(Upstream{Vendor: "carrier", Status: 429, Code: "rate_limited", RequestID: "req_8fK2aa"}).
		WithRequestID("4f1c2a9b7d3e4f5a8b6c7d8e9f0a1b2c").
		WithTraceID("4bf92f3577b34da6a3ce929d0e0e4736").
		WithInstance("/tools/create_shipment_label")
}

// benchMap is the same error as a map, the way a hand-rolled handler would
// build it for encoding/json.
func benchMap(e *Error) map[string]any {
	return map[string]any{
		"type": e.Type, "title": e.Title, "status": e.Status, "detail": e.Detail, "instance": e.Instance,
		"code": e.Code, "category": string(e.Category), "severity": string(e.Severity), "retryable": e.Retryable,
		"retry_after_ms": e.RetryAfter.Milliseconds(), "field": e.Field,
		"allowed_values": map[string]any{"minimum": 0.1, "maximum": 70}, "suggested_value": 70,
		"hint": e.Hint, "human_hint": e.HumanHint, "suggestions": e.Suggestions,
		"details": e.Details, "tool": e.Tool,
		"retry_policy": map[string]any{"strategy": string(e.RetryPolicy.Strategy), "base_ms": e.RetryPolicy.BaseDelay.Milliseconds(),
			"max_attempts": e.RetryPolicy.MaxAttempts, "idempotency_required": e.RetryPolicy.IdempotencyRequired},
		"upstream":   map[string]any{"vendor": e.Upstream.Vendor, "status": e.Upstream.Status, "code": e.Upstream.Code, "request_id": e.Upstream.RequestID},
		"trace_id":   e.TraceID,
		"request_id": e.RequestID,
	}
}

func TestBenchMapIsEquivalent(t *testing.T) {
	e := benchError()
	var fromRender, fromMap map[string]any
	if err := json.Unmarshal(e.AppendJSON(nil), &fromRender); err != nil {
		t.Fatal(err)
	}
	b, err := json.Marshal(benchMap(e))
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &fromMap); err != nil {
		t.Fatal(err)
	}
	if len(fromRender) != len(fromMap) {
		t.Fatalf("the comparison must encode the same members: %d vs %d", len(fromRender), len(fromMap))
	}
	for k := range fromRender {
		if _, ok := fromMap[k]; !ok {
			t.Fatalf("member %q missing from the map", k)
		}
	}
}

// BenchmarkRender compares the appender with encoding/json on an equivalent
// map, in the same run. Both reuse their output buffer where they can.
func BenchmarkRender(b *testing.B) {
	e := benchError()
	b.Run("toolerr_AppendJSON", func(b *testing.B) {
		buf := make([]byte, 0, 4096)
		b.ReportAllocs()
		for b.Loop() {
			buf = e.AppendJSON(buf[:0])
		}
		b.SetBytes(int64(len(buf)))
	})
	b.Run("toolerr_AppendJSON_validation", func(b *testing.B) {
		// The error the bench/ module's Tool returns, as the middleware
		// renders it: one bad field, a violation, the request's ids.
		v := Default().New(CodeValidationFailed, "limit must be between 1 and 100; got 500.").
			WithField("/limit").WithAllowedValues(Range{Minimum: 1, Maximum: 100}).WithSuggestedValue(100).
			WithViolations(Violation{Field: "/limit", Reason: "must be between 1 and 100", AllowedValues: Range{Minimum: 1, Maximum: 100}, SuggestedValue: 100}).
			WithTool("search_orders").WithInstance("/tools/search_orders").WithRequestID("466937d7a0f6a8c7c26ef602fe1013a3")
		buf := make([]byte, 0, 4096)
		b.ReportAllocs()
		for b.Loop() {
			buf = v.AppendJSON(buf[:0])
		}
		b.SetBytes(int64(len(buf)))
	})
	b.Run("encoding_json_map", func(b *testing.B) {
		var n int
		b.ReportAllocs()
		for b.Loop() {
			out, err := json.Marshal(benchMap(e))
			if err != nil {
				b.Fatal(err)
			}
			n = len(out)
		}
		b.SetBytes(int64(n))
	})
	b.Run("encoding_json_map_prebuilt", func(b *testing.B) {
		m := benchMap(e)
		b.ReportAllocs()
		for b.Loop() {
			if _, err := json.Marshal(m); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkNewFromRegistry measures building an error from a registered code.
func BenchmarkNewFromRegistry(b *testing.B) {
	reg := Default()
	b.ReportAllocs()
	for b.Loop() {
		_ = reg.New(CodeNotFound, "no such order")
	}
}
