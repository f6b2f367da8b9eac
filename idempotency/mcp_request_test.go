package idempotency

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// TestMCPRequestsPassThrough: an MCP POST (one JSON-RPC message, its id
// the client's) is never replayed nor refused by the HTTP middleware or
// the guard, whatever header it carries: a replay would answer another
// message's id. Each message gets its own answer; a non-MCP POST with the
// same key is still replayed.
func TestMCPRequestsPassThrough(t *testing.T) {
	var runs atomic.Int32
	echo := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		runs.Add(1)
		var msg struct {
			ID json.RawMessage `json:"id"`
		}
		_ = json.NewDecoder(r.Body).Decode(&msg)
		w.Header().Set("Content-Type", "application/json")
		_, _ = w.Write([]byte(`{"jsonrpc":"2.0","id":` + string(msg.ID) + `,"result":{}}`))
	})
	store := NewMemoryStore()
	h := Middleware(store, SharedAnonymousScope())(DuplicateGuard(store, SharedAnonymousScope())(echo))
	srv := httptest.NewServer(h)
	defer srv.Close()
	post := func(id int, header http.Header) string {
		body := `{"jsonrpc":"2.0","id":` + string(rune('0'+id)) + `,"method":"tools/call","params":{"name":"refund","arguments":{}}}`
		req, err := http.NewRequest(http.MethodPost, srv.URL, strings.NewReader(body))
		require.NoError(t, err)
		req.Header = header.Clone()
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Idempotency-Key", "k-1")
		res, err := http.DefaultClient.Do(req)
		require.NoError(t, err)
		defer res.Body.Close()
		var got struct {
			ID json.RawMessage `json:"id"`
		}
		require.NoError(t, json.NewDecoder(res.Body).Decode(&got))
		return string(got.ID)
	}
	for name, header := range map[string]http.Header{
		"initialize-style Accept": {"Accept": {"application/json, text/event-stream"}},
		"session":                 {"Mcp-Session-Id": {"s-1"}},
		"protocol version":        {"Mcp-Protocol-Version": {"2025-11-25"}},
	} {
		runs.Store(0)
		assert.Equal(t, "1", post(1, header), name)
		assert.Equal(t, "2", post(2, header), "%s: each message gets its own id", name)
		assert.Equal(t, int32(2), runs.Load(), "%s: both messages reached the server", name)
	}
	runs.Store(0)
	assert.Equal(t, "3", post(3, http.Header{}))
	assert.Equal(t, "3", post(3, http.Header{}), "a plain POST with the same key and body is replayed")
	assert.Equal(t, int32(1), runs.Load())
}
