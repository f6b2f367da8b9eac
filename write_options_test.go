package toolerr

import (
	"math"
	"net/http"
	"net/http/httptest"
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestWriteOptionsCostNoAllocation: options are values Write reads, so
// reading them allocates nothing (a function called with the config's
// address would move the config to the heap), and a call with options
// allocates as much as one without.
func TestWriteOptionsCostNoAllocation(t *testing.T) {
	opts := []WriteOption{WithFormat(FormatEnvelope), WithRegistry(Default())}
	var cfg writeConfig
	assert.Zero(t, testing.AllocsPerRun(100, func() { cfg = newWriteConfig(opts) }))
	assert.Equal(t, writeConfig{format: FormatEnvelope, registry: Default()}, cfg)

	e := Default().New(CodeNotFound, "no such widget").WithInstance("/w")
	r := httptest.NewRequest(http.MethodGet, "/w", nil)
	w := httptest.NewRecorder()
	// The fewest of five measurements: under the race detector sync.Pool
	// drops some of what it is given, so one measurement can count a
	// buffer the pool lost.
	write := func(opts ...WriteOption) float64 {
		least := math.Inf(1)
		for range 5 {
			least = min(least, testing.AllocsPerRun(50, func() {
				clear(w.Header())
				Write(w, r, e, opts...)
			}))
		}
		return least
	}
	assert.Equal(t, write(), write(WithFormat(FormatProblem), WithRegistry(Default())))
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
