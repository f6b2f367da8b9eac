// Package bench compares toolerr with its peers: its HTTP middleware with
// chi's, echo's and huma's error handling, retrygate with
// go-retryablehttp and failsafe-go, and argcheck's validating decode with
// huma's (args.go). It is a nested module so that the peers never enter
// the library's go.mod. The benchmarks are in bench_test.go and
// args_bench_test.go; the script bench/run runs them and writes
// benchstat's tables.
package bench

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"sync/atomic"

	"github.com/danielgtaylor/huma/v2"
	"github.com/danielgtaylor/huma/v2/adapters/humachi"
	"github.com/go-chi/chi/v5"
	chimw "github.com/go-chi/chi/v5/middleware"
	"github.com/labstack/echo/v4"
	echomw "github.com/labstack/echo/v4/middleware"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware"
)

// Path is the route every contender serves.
const Path = "/tools/search_orders"

// Contender names, as they appear in benchmark names and metric units.
const (
	Toolerr = "toolerr"    // middleware.New(), a Tool for the tool error
	ChiPair = "chi"        // chi's RequestID + Recoverer
	Floor   = "chi_encode" // json.NewEncoder(w).Encode(problem) behind chi's pair
	Echo    = "echo"       // echo with Recover() + RequestID()
	Huma    = "huma"       // huma v2 on humachi
)

// Scenario is what the handler does.
type Scenario int

// The scenarios of the HTTP comparison.
const (
	Pass1KiB        Scenario = iota // a 200 with a 1 KiB JSON body
	Pass1MiB                        // a 200 with a 1 MiB JSON body
	Validation                      // a tool validation error: one bad field
	Nginx502                        // the handler writes nginx's 502 HTML page
	ValidationFresh                 // Validation with a detail that differs on every call
)

// String names the scenario in benchmark names.
func (s Scenario) String() string {
	return [...]string{"pass_1KiB", "pass_1MiB", "validation_error", "nginx_502", "validation_fresh_detail"}[s]
}

// Contenders lists who takes part in a scenario, in the order they run.
// Raw pages are written by handlers of net/http and echo alone: huma's
// operations return typed outputs, not raw error pages. The hand-written
// encode is the floor of the error scenario only.
func Contenders(s Scenario) []string {
	switch s {
	case Validation, ValidationFresh:
		return []string{Toolerr, Huma, Floor, Echo}
	case Nginx502:
		return []string{Toolerr, ChiPair, Echo}
	default:
		return []string{Toolerr, ChiPair, Echo, Huma}
	}
}

// body returns a JSON body of exactly n bytes.
func body(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"orders":[`)
	for b.Len() < n {
		b.WriteString(`"o-000001",`)
	}
	out := []byte(b.String())[:n-2]
	return append(out, "]}"...)
}

// Bodies of the pass-through scenarios.
var (
	body1KiB = body(1 << 10)
	body1MiB = body(1 << 20)
)

// okBody is the body a pass-through scenario writes.
func okBody(s Scenario) []byte {
	if s == Pass1MiB {
		return body1MiB
	}
	return body1KiB
}

// NginxPage is nginx's 502 page from the library's fixtures.
var NginxPage = func() []byte {
	_, file, _, _ := runtime.Caller(0)
	b, err := os.ReadFile(filepath.Join(filepath.Dir(file), "..", "testdata", "html", "nginx_502.html"))
	if err != nil {
		panic(err)
	}
	return b
}()

// The bad field of the validation scenario, the same in every contender.
const (
	badField   = "limit"
	badPointer = "/limit"
	badReason  = "must be between 1 and 100"
	badDetail  = "limit must be between 1 and 100; got 500."
	// badDetailPrefix is badDetail without its value.
	badDetailPrefix = "limit must be between 1 and 100; got "
	badValue        = 500
)

// toolError is the error toolerr's Tool returns: VALIDATION_FAILED with
// the field and one violation, built per call as a handler would.
func toolError(detail string) error {
	return toolerr.Default().New(toolerr.CodeValidationFailed, detail).
		WithField(badPointer).
		WithAllowedValues(toolerr.Range{Minimum: 1, Maximum: 100}).
		WithSuggestedValue(100).
		WithViolations(toolerr.Violation{
			Field:          badPointer,
			Reason:         badReason,
			AllowedValues:  toolerr.Range{Minimum: 1, Maximum: 100},
			SuggestedValue: 100,
		})
}

// detailOf returns the detail maker of a handler of scenario s: the fixed
// detail, or for ValidationFresh one that names a new value on every call
// ("…; got 501.", "…; got 502."), made the same way in every contender, so
// that no cache of recent texts can hold it.
func detailOf(s Scenario) func() string {
	if s != ValidationFresh {
		return func() string { return badDetail }
	}
	var n atomic.Int64
	n.Store(badValue)
	return func() string {
		return badDetailPrefix + strconv.FormatInt(n.Add(1), 10) + "."
	}
}

// Problem is the floor's hand-written RFC 9457 problem, with the same
// field and violation.
type Problem struct {
	Type       string      `json:"type"`
	Title      string      `json:"title"`
	Status     int         `json:"status"`
	Detail     string      `json:"detail"`
	Code       string      `json:"code"`
	Field      string      `json:"field"`
	Violations []Violation `json:"violations"`
}

// Violation is one bad field of Problem.
type Violation struct {
	Field  string `json:"field"`
	Reason string `json:"reason"`
	Value  any    `json:"value"`
}

// problem returns the floor's problem, built per call.
func problem(detail string) *Problem {
	return &Problem{
		Type:       "urn:problem:validation",
		Title:      "The request is invalid",
		Status:     http.StatusBadRequest,
		Detail:     detail,
		Code:       "VALIDATION_FAILED",
		Field:      badPointer,
		Violations: []Violation{{Field: badPointer, Reason: badReason, Value: badValue}},
	}
}

// quiet discards toolerr's log record of each error, as the other
// contenders log nothing for a handled error.
var quiet = slog.New(slog.DiscardHandler)

// Handler builds contender c's handler of scenario s, router included:
// the net/http contenders are mounted on a chi router, as in the README's
// Quickstart; echo and huma route with their own.
func Handler(c string, s Scenario) http.Handler {
	switch c {
	case Toolerr:
		r := chi.NewRouter()
		r.Use(middleware.New(middleware.WithLogger(quiet)))
		switch s {
		case Validation, ValidationFresh:
			detail := detailOf(s)
			r.Post(Path, middleware.ToolFunc("search_orders", func(http.ResponseWriter, *http.Request) error {
				return toolError(detail())
			}))
		default:
			r.Post(Path, stdHandler(s))
		}
		return r
	case ChiPair, Floor:
		r := chi.NewRouter()
		r.Use(chimw.RequestID, chimw.Recoverer)
		r.Post(Path, stdHandler(s))
		return r
	case Echo:
		return echoHandler(s)
	case Huma:
		return humaHandler(s)
	}
	panic("bench: unknown contender " + c)
}

// stdHandler is the net/http handler of scenario s.
func stdHandler(s Scenario) http.HandlerFunc {
	switch s {
	case Validation, ValidationFresh:
		detail := detailOf(s)
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/problem+json")
			w.WriteHeader(http.StatusBadRequest)
			_ = json.NewEncoder(w).Encode(problem(detail()))
		}
	case Nginx502:
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "text/html")
			w.WriteHeader(http.StatusBadGateway)
			_, _ = w.Write(NginxPage)
		}
	default:
		b := okBody(s)
		return func(w http.ResponseWriter, _ *http.Request) {
			w.Header().Set("Content-Type", "application/json")
			w.WriteHeader(http.StatusOK)
			_, _ = w.Write(b)
		}
	}
}

// echoHandler is echo with Recover() and RequestID(). Its tool error goes
// through echo's own error handler: an *echo.HTTPError whose message is
// the floor's problem, written as JSON with status 400.
func echoHandler(s Scenario) http.Handler {
	e := echo.New()
	e.HideBanner, e.HidePort = true, true
	e.Use(echomw.Recover(), echomw.RequestID())
	switch s {
	case Validation, ValidationFresh:
		detail := detailOf(s)
		e.POST(Path, func(echo.Context) error {
			return echo.NewHTTPError(http.StatusBadRequest, problem(detail()))
		})
	case Nginx502:
		e.POST(Path, func(c echo.Context) error {
			return c.HTMLBlob(http.StatusBadGateway, NginxPage)
		})
	default:
		b := okBody(s)
		e.POST(Path, func(c echo.Context) error {
			return c.Blob(http.StatusOK, echo.MIMEApplicationJSON, b)
		})
	}
	return e
}

// humaOK is huma's output of a pass-through: raw bytes with a content type.
type humaOK struct {
	ContentType string `header:"Content-Type"`
	Body        []byte
}

// humaHandler is a huma v2 API on humachi with one operation. Its tool
// error is huma.Error422UnprocessableEntity with one ErrorDetail (location,
// message, value), rendered by huma as application/problem+json.
func humaHandler(s Scenario) http.Handler {
	r := chi.NewRouter()
	api := humachi.New(r, huma.DefaultConfig("bench", "1.0.0"))
	op := huma.Operation{OperationID: "search-orders", Method: http.MethodPost, Path: Path}
	switch s {
	case Validation, ValidationFresh:
		detail := detailOf(s)
		huma.Register(api, op, func(context.Context, *struct{}) (*humaOK, error) {
			return nil, huma.Error422UnprocessableEntity(detail(), &huma.ErrorDetail{
				Location: "body." + badField,
				Message:  badReason,
				Value:    badValue,
			})
		})
	default:
		b := okBody(s)
		huma.Register(api, op, func(context.Context, *struct{}) (*humaOK, error) {
			return &humaOK{ContentType: "application/json", Body: b}, nil
		})
	}
	return r
}

// NewRequest returns the request every contender is served. It carries no
// body (no contender reads one) and no request id (each makes one).
func NewRequest() *http.Request {
	return httptest.NewRequest(http.MethodPost, Path, nil)
}

// Check serves one request with contender c's handler of scenario s and
// checks its answer: status, content type and a property of the body, so
// that a misconfigured contender cannot win by doing nothing.
func Check(c string, s Scenario) error {
	rec := httptest.NewRecorder()
	Handler(c, s).ServeHTTP(rec, NewRequest())
	res := rec.Result()
	b, _ := io.ReadAll(res.Body)
	ct := res.Header.Get("Content-Type")
	fail := func(format string, args ...any) error {
		return fmt.Errorf("%s %s: status %d, %s, %d bytes: %s", c, s, res.StatusCode, ct, len(b), fmt.Sprintf(format, args...))
	}
	switch s {
	case Pass1KiB, Pass1MiB:
		if res.StatusCode != http.StatusOK || string(b) != string(okBody(s)) {
			return fail("want 200 and the body unchanged")
		}
	case Validation, ValidationFresh:
		want := map[string]int{Toolerr: 400, Huma: 422, Floor: 400, Echo: 400}[c]
		if res.StatusCode != want || !strings.Contains(ct, "json") {
			return fail("want %d and JSON", want)
		}
		var m map[string]any
		if err := json.Unmarshal(b, &m); err != nil {
			return fail("not JSON: %v", err)
		}
		if !strings.Contains(string(b), badField) || !strings.Contains(string(b), badReason) {
			return fail("the bad field or its reason is missing: %s", b)
		}
		if c == Toolerr && (m["code"] != toolerr.CodeValidationFailed || m["field"] != badPointer || !strings.HasPrefix(ct, "application/problem+json")) {
			return fail("want a VALIDATION_FAILED problem with field %s: %s", badPointer, b)
		}
	case Nginx502:
		if c == Toolerr {
			// toolerr captures the page and replaces it with a problem:
			// 503 UPSTREAM_UNAVAILABLE, the gateway's 502 in upstream.
			if res.StatusCode != http.StatusServiceUnavailable || !strings.HasPrefix(ct, "application/problem+json") ||
				!strings.Contains(string(b), `"code":"UPSTREAM_UNAVAILABLE"`) || !strings.Contains(string(b), `"upstream":{"vendor":"nginx","status":502}`) ||
				strings.Contains(string(b), "<html>") {
				return fail("want the page replaced by a 503 UPSTREAM_UNAVAILABLE problem from nginx's 502: %s", b)
			}
		} else if res.StatusCode != http.StatusBadGateway || string(b) != string(NginxPage) {
			return fail("want the 502 page passed through")
		}
	}
	if res.Header.Get("X-Request-Id") == "" && c != Huma && c != ChiPair && c != Floor {
		return fail("no X-Request-Id")
	}
	return nil
}
