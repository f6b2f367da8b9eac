package bench

import (
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// TestWriterSeesWhatARecorderSees: the benchmarks' timed loops serve every
// contender into one reused Writer, and judge it by its status and byte
// count. Served twice into the same Writer, Reset between the calls as the
// loops do, each contender of each scenario leaves in it the status, the
// headers and the number of body bytes that net/http's own recorder gets,
// so a benchmark measures the same answer a real client would be sent.
func TestWriterSeesWhatARecorderSees(t *testing.T) {
	for _, s := range scenarios {
		for _, c := range Contenders(s) {
			t.Run(s.String()+"/"+c, func(t *testing.T) {
				rec := httptest.NewRecorder()
				Handler(c, s).ServeHTTP(rec, NewRequest())
				h, w := Handler(c, s), NewWriter()
				for round := range 2 {
					w.Reset()
					h.ServeHTTP(w, NewRequest())
					if w.Status != rec.Code || w.N != rec.Body.Len() {
						t.Fatalf("round %d: the Writer saw status %d and %d bytes, the recorder %d and %d",
							round, w.Status, w.N, rec.Code, rec.Body.Len())
					}
					for _, k := range []string{"Content-Type", "Content-Length"} {
						if got, want := w.Header().Get(k), rec.Header().Get(k); got != want {
							t.Fatalf("round %d: %s is %q in the Writer, %q in the recorder", round, k, got, want)
						}
					}
				}
			})
		}
	}
}

// TestWriterOptionalInterfaces: the Writer offers net/http's optional
// interfaces as its own writer does, so a contender that uses one does
// not take a slower path in the benchmark than in a server: it flushes,
// refuses a hijack with http.ErrNotSupported, counts what a ReaderFrom or
// a StringWriter is given, and takes its status from the first
// WriteHeader or, failing one, the first write.
func TestWriterOptionalInterfaces(t *testing.T) {
	w := NewWriter()
	rc := http.NewResponseController(w)
	if err := rc.Flush(); err != nil {
		t.Errorf("Flush: %v, want the Writer to flush", err)
	}
	if _, _, err := rc.Hijack(); !errors.Is(err, http.ErrNotSupported) {
		t.Errorf("Hijack: %v, want http.ErrNotSupported", err)
	}
	if n, err := io.Copy(w, io.LimitReader(strings.NewReader(strings.Repeat("x", 5000)), 3000)); n != 3000 || err != nil {
		t.Fatalf("io.Copy wrote %d, %v", n, err)
	}
	if n, err := io.WriteString(w, "tail"); n != 4 || err != nil {
		t.Fatalf("io.WriteString wrote %d, %v", n, err)
	}
	if w.N != 3004 {
		t.Errorf("counted %d bytes, want 3004", w.N)
	}
	w.WriteHeader(http.StatusTeapot) // after a write: too late, as in net/http
	if w.Status != http.StatusOK {
		t.Errorf("status %d after a write then WriteHeader, want 200", w.Status)
	}

	w.Header().Set("Content-Type", "text/plain")
	w.Reset()
	if w.Status != 0 || w.N != 0 || len(w.Header()) != 0 {
		t.Fatalf("Reset left status %d, %d bytes, header %v", w.Status, w.N, w.Header())
	}
	w.WriteHeader(http.StatusBadGateway)
	w.WriteHeader(http.StatusOK)
	if _, err := io.WriteString(w, "page"); err != nil {
		t.Fatal(err)
	}
	if w.Status != http.StatusBadGateway {
		t.Errorf("status %d, want the first WriteHeader's 502", w.Status)
	}
}
