package toolerr

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"strconv"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/internal/reqscope"
)

const okTraceID = "4bf92f3577b34da6a3ce929d0e0e4736"

// failingResult cannot be encoded.
type failingResult struct{}

// MarshalJSON always fails.
func (failingResult) MarshalJSON() ([]byte, error) { return nil, errors.New("secret encoder detail") }

func TestWriteOKEnvelope(t *testing.T) {
	tests := []struct {
		name       string
		ctx        func(context.Context) context.Context
		preset     string // X-Request-Id already on the response
		result     any
		wantResult string
		wantID     string // "" = a new random id
		wantTrace  string
	}{
		{"ids from the context", func(ctx context.Context) context.Context { return reqscope.New(ctx, "req-42", okTraceID) },
			"", map[string]any{"id": "inv-1", "total": 12}, `{"id":"inv-1","total":12}`, "req-42", okTraceID},
		{"context id wins over the header", func(ctx context.Context) context.Context { return WithRequestID(ctx, "req-ctx") },
			"req-header", []int{1, 2}, `[1,2]`, "req-ctx", ""},
		{"header id without a context id", nil, "req-header", "done", `"done"`, "req-header", ""},
		{"invalid ids are not echoed", func(ctx context.Context) context.Context {
			return reqscope.New(ctx, "bad id\r\n", "not-a-trace")
		}, "", nil, `null`, "", ""},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req := httptest.NewRequest(http.MethodPost, "/tools/invoice", nil)
			if tc.ctx != nil {
				req = req.WithContext(tc.ctx(req.Context()))
			}
			rec := httptest.NewRecorder()
			if tc.preset != "" {
				rec.Header().Set("X-Request-Id", tc.preset)
			}
			rec.Header().Set("Retry-After", "3")
			WriteOK(rec, req, tc.result)

			require.Equal(t, http.StatusOK, rec.Code)
			h := rec.Header()
			assert.Equal(t, ContentTypeEnvelope, h.Get("Content-Type"))
			assert.Equal(t, "no-store", h.Get("Cache-Control"))
			assert.Equal(t, "nosniff", h.Get("X-Content-Type-Options"))
			assert.Equal(t, strconv.Itoa(rec.Body.Len()), h.Get("Content-Length"))
			assert.Empty(t, h.Get("Retry-After"))

			var body map[string]json.RawMessage
			require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &body), rec.Body.String())
			assert.JSONEq(t, `true`, string(body["ok"]))
			assert.JSONEq(t, tc.wantResult, string(body["result"]))
			var id string
			require.NoError(t, json.Unmarshal(body["request_id"], &id))
			assert.Equal(t, h.Get("X-Request-Id"), id, "header and body agree")
			if tc.wantID != "" {
				assert.Equal(t, tc.wantID, id)
			} else {
				assert.True(t, ValidRequestID(id) && len(id) == 32, "a new id, got %q", id)
			}
			if tc.wantTrace != "" {
				assert.JSONEq(t, strconv.Quote(tc.wantTrace), string(body["trace_id"]))
				assert.Len(t, body, 4)
			} else {
				assert.NotContains(t, body, "trace_id")
				assert.Len(t, body, 3)
			}
		})
	}
}

func TestWriteOKMemberOrder(t *testing.T) {
	req := httptest.NewRequest(http.MethodGet, "/", nil)
	req = req.WithContext(reqscope.New(req.Context(), "req-1", okTraceID))
	rec := httptest.NewRecorder()
	WriteOK(rec, req, map[string]string{"a": "<b>"})
	assert.Equal(t, `{"ok":true,"result":{"a":"\u003cb\u003e"},"request_id":"req-1","trace_id":"`+okTraceID+`"}`, rec.Body.String())
}

func TestWriteOKNilRequest(t *testing.T) {
	rec := httptest.NewRecorder()
	WriteOK(rec, nil, 1)
	assert.Equal(t, http.StatusOK, rec.Code)
	assert.True(t, ValidRequestID(rec.Header().Get("X-Request-Id")))
}

func TestWriteOKEncodingFailureIsInternalError(t *testing.T) {
	for _, result := range []any{failingResult{}, map[string]any{"c": make(chan int)}, []float64{1, math.NaN()}} {
		req := httptest.NewRequest(http.MethodPost, "/tools/x", nil)
		req = req.WithContext(reqscope.New(req.Context(), "req-7", okTraceID))
		rec := httptest.NewRecorder()
		WriteOK(rec, req, result, WithFormat(FormatEnvelope))

		require.Equal(t, http.StatusInternalServerError, rec.Code)
		assert.Equal(t, ContentTypeEnvelope, rec.Header().Get("Content-Type"), "Write's options apply")
		assert.Equal(t, "req-7", rec.Header().Get("X-Request-Id"))
		var body struct {
			OK    bool           `json:"ok"`
			Error map[string]any `json:"error"`
		}
		require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &body))
		assert.False(t, body.OK)
		assert.Equal(t, CodeInternal, body.Error["code"])
		assert.Equal(t, "req-7", body.Error["request_id"])
		assert.Equal(t, okTraceID, body.Error["trace_id"])
		assert.NotContains(t, rec.Body.String(), "secret encoder detail")
		assert.NotContains(t, rec.Body.String(), "result")
	}
}

func TestWriteOKEncodingFailureUsesTheRegistry(t *testing.T) {
	reg := NewRegistry(Default(), WithDocsBase("https://docs.example.com/e/"))
	req := httptest.NewRequest(http.MethodPost, "/", nil)
	ctx := reqscope.New(req.Context(), "req-8", "")
	rec := httptest.NewRecorder()
	WriteOK(rec, req.WithContext(ctx), failingResult{}, WithRegistry(reg))
	var body map[string]any
	require.NoError(t, json.Unmarshal(rec.Body.Bytes(), &body))
	assert.Equal(t, "https://docs.example.com/e/INTERNAL_ERROR", body["type"])

	written := reqscope.Written[*Error](ctx)
	require.NotNil(t, written, "the middleware sees the error and its cause")
	assert.ErrorContains(t, written.Unwrap(), "secret encoder detail")
}

func ExampleWriteOK() {
	handler := func(w http.ResponseWriter, r *http.Request) {
		WriteOK(w, r, map[string]any{"invoice_id": "inv-123", "status": "sent"})
	}
	req := httptest.NewRequest(http.MethodPost, "/tools/send_invoice", nil)
	req = req.WithContext(WithRequestID(req.Context(), "req-1"))
	rec := httptest.NewRecorder()
	handler(rec, req)
	fmt.Println(rec.Code, rec.Header().Get("Content-Type"), rec.Header().Get("X-Request-Id"))
	fmt.Println(rec.Body.String())
	// Output:
	// 200 application/json req-1
	// {"ok":true,"result":{"invoice_id":"inv-123","status":"sent"},"request_id":"req-1"}
}
