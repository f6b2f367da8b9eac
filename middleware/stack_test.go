package middleware

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/idempotency"
	"github.com/toolerr/toolerr/internal/docpage"
)

// TestToolErrorIsSeenByMiddlewareInBetween mounts idempotency between New
// and a Tool, as docs/mounting.md orders them. A returned error must reach the
// idempotency layer as the error response it is: a validation error is
// stored and replayed as that error, a server error is not stored, and
// neither is ever replayed as an empty success.
func TestToolErrorIsSeenByMiddlewareInBetween(t *testing.T) {
	docpage.Says(t, "../docs/mounting.md",
		"| `idempotency.Middleware`, `DuplicateGuard` | inside, before the tool | their refusals pass through toolerr (ids, sanitizing, telemetry) and carry the tool's name |")
	var runs atomic.Int32
	var fail atomic.Pointer[error]
	tool := Tool("create_shipment_label", func(w http.ResponseWriter, r *http.Request) error {
		runs.Add(1)
		return *fail.Load()
	})
	setFail := func(err error) { fail.Store(&err) }
	h := New(WithLogger(quiet))(idempotency.Middleware(idempotency.NewMemoryStore(), idempotency.WithLogger(quiet))(tool))
	post := func(key string) *httptest.ResponseRecorder {
		req := httptest.NewRequest("POST", "/tools/create_shipment_label", strings.NewReader(`{"kg":-1}`))
		req.Header.Set("Idempotency-Key", key)
		req.Header.Set("Authorization", "Bearer agent-1") // keyed calls need a principal
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}

	setFail(toolerr.Default().New(toolerr.CodeValidationFailed, "kg must be positive.").WithField("kg"))
	first := post("k-1")
	require.Equal(t, 400, first.Code)
	replayed := post("k-1")
	assert.Equal(t, 400, replayed.Code, "the stored error, not an empty 200")
	assert.Equal(t, "true", replayed.Header().Get("Idempotent-Replayed"))
	e, err := toolerr.Parse(replayed.Body.Bytes())
	require.NoError(t, err)
	assert.Equal(t, toolerr.CodeValidationFailed, e.Code)
	assert.Equal(t, "kg", e.Field)
	assert.EqualValues(t, 1, runs.Load())

	setFail(errors.New("carrier connection pool exhausted"))
	assert.Equal(t, 500, post("k-2").Code)
	again := post("k-2")
	assert.Equal(t, 500, again.Code, "a server error is not stored: the retry runs")
	assert.Empty(t, again.Header().Get("Idempotent-Replayed"))
	assert.EqualValues(t, 3, runs.Load())
}
