package toolerr

import (
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestWriteOptionsCostNoAllocation: options are values Write reads, so a
// call with options allocates as much as one without.
func TestWriteOptionsCostNoAllocation(t *testing.T) {
	e := Default().New(CodeNotFound, "no such widget").WithInstance("/w")
	r := httptest.NewRequest(http.MethodGet, "/w", nil)
	w := httptest.NewRecorder()
	write := func(opts ...WriteOption) float64 {
		return testing.AllocsPerRun(50, func() {
			clear(w.Header())
			Write(w, r, e, opts...)
		})
	}
	opts := []WriteOption{WithFormat(FormatProblem), WithRegistry(Default())}
	assert.Equal(t, write(), write(opts...))
}

// TestWriteOptionDefaults: the zero option sets nothing, a nil registry is
// the default one (in Write and WriteOK), and the last option of a kind
// wins.
func TestWriteOptionDefaults(t *testing.T) {
	r := httptest.NewRequest(http.MethodGet, "/w", nil)
	w := httptest.NewRecorder()
	Write(w, r, Default().New(CodeNotFound, ""), WriteOption{}, WithFormat(FormatProblem), WithFormat(FormatEnvelope))
	assert.Equal(t, ContentTypeEnvelope, w.Header().Get("Content-Type"))

	w = httptest.NewRecorder()
	assert.NotPanics(t, func() { WriteOK(w, r, make(chan int), WithRegistry(nil)) })
	assert.Equal(t, http.StatusInternalServerError, w.Code)
	assert.Contains(t, w.Body.String(), CodeInternal)
}
