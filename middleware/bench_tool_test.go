package middleware

import (
	"encoding/json"
	"net/http"
	"testing"

	chimw "github.com/go-chi/chi/v5/middleware"

	"github.com/toolerr/toolerr"
)

// validationTool is a Tool handler that rejects its call with one bad field
// and its violation, built per call as a real handler builds it.
func validationTool(w http.ResponseWriter, r *http.Request) error {
	return toolerr.Default().New(toolerr.CodeValidationFailed, "limit must be at most 100").
		WithField("/limit").
		WithViolations(toolerr.Violation{
			Field:          "/limit",
			Reason:         "must be at most 100",
			AllowedValues:  toolerr.Range{Minimum: 1, Maximum: 100},
			SuggestedValue: 100,
		})
}

// handProblem is a hand-written RFC 9457 body with one field error, the
// shape huma's ErrorModel renders.
type handProblem struct {
	Type     string             `json:"type"`
	Title    string             `json:"title"`
	Status   int                `json:"status"`
	Detail   string             `json:"detail"`
	Instance string             `json:"instance"`
	Errors   []handProblemField `json:"errors"`
}

type handProblemField struct {
	Message  string `json:"message"`
	Location string `json:"location"`
	Value    any    `json:"value"`
}

// handWritten encodes the problem with encoding/json: the floor any
// framework's error path sits on.
var handWritten = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
	p := handProblem{
		Type: "about:blank", Title: "Unprocessable Entity", Status: http.StatusUnprocessableEntity,
		Detail: "validation failed", Instance: r.URL.Path,
		Errors: []handProblemField{{Message: "must be at most 100", Location: "body.limit", Value: 250}},
	}
	w.Header().Set("Content-Type", "application/problem+json")
	w.WriteHeader(p.Status)
	_ = json.NewEncoder(w).Encode(p)
})

// BenchmarkToolError measures a Tool's returned validation error under
// New() against the same error encoded by hand behind chi's RequestID +
// Recoverer pair, in the same run (the floor: toolerr ≤ 3× it).
func BenchmarkToolError(b *testing.B) {
	req, _ := http.NewRequest("POST", "/tools/search_orders", nil)
	b.Run("toolerr_validation_1_field", func(b *testing.B) {
		runHandler(b, New(WithLogger(quiet))(Tool("search_orders", validationTool)), req)
	})
	b.Run("chi_pair_hand_encoded", func(b *testing.B) {
		runHandler(b, chimw.RequestID(chimw.Recoverer(handWritten)), req)
	})
}

// BenchmarkNginx502 measures nginx's own 502 page, as captured from nginx,
// replaced by New() against chi's pair passing it through.
func BenchmarkNginx502(b *testing.B) {
	req, _ := http.NewRequest("POST", "/tools/search_orders", nil)
	page := []byte(fixture(b, "html/nginx_502.html"))
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Server", "nginx/1.25.3")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = w.Write(page)
	})
	b.Run("toolerr", func(b *testing.B) { runHandler(b, New(WithLogger(quiet))(h), req) })
	b.Run("chi_requestid_recoverer", func(b *testing.B) {
		runHandler(b, chimw.RequestID(chimw.Recoverer(h)), req)
	})
}

// BenchmarkPassThrough1MiB is BenchmarkPassThrough with a 1 MiB body
// written in 32 KiB pieces, so the per-write overhead shows.
func BenchmarkPassThrough1MiB(b *testing.B) {
	req, _ := http.NewRequest("POST", "/tools/export", nil)
	chunk := make([]byte, 32<<10)
	h := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/octet-stream")
		w.WriteHeader(http.StatusOK)
		for range 32 {
			_, _ = w.Write(chunk)
		}
	})
	b.Run("toolerr", func(b *testing.B) { runHandler(b, New(WithLogger(quiet))(h), req) })
	b.Run("chi_requestid_recoverer", func(b *testing.B) {
		runHandler(b, chimw.RequestID(chimw.Recoverer(h)), req)
	})
}
