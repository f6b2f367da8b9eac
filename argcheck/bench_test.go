package argcheck_test

import (
	"encoding/json"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-chi/chi/v5"
	gjs "github.com/google/jsonschema-go/jsonschema"

	"github.com/toolerr/toolerr/argcheck"
	"github.com/toolerr/toolerr/middleware"
)

// typicalArgs is a typical valid call of search_orders.
const typicalArgs = `{"customer_id":"c_8f2a91","status":"shipped","limit":25}`

// searchHandler decodes the arguments itself, as a handler without
// argcheck does, and answers.
func searchHandler(w http.ResponseWriter, r *http.Request) error {
	var args SearchArgs
	if err := json.NewDecoder(r.Body).Decode(&args); err != nil {
		return err
	}
	w.Header().Set("Content-Type", "application/json")
	_, err := io.WriteString(w, `{"orders":[]}`)
	return err
}

// BenchmarkToolCall measures one valid tool call through chi and the
// toolerr middleware, in process: the handler alone (bare), under toolerr
// without validation, and with the arguments checked by the schema's
// middleware or by Decode. The validation cost is the difference from
// "toolerr"; the middleware's overhead is "toolerr" minus "bare".
func BenchmarkToolCall(b *testing.B) {
	schema, err := argcheck.Compile([]byte(searchSchema))
	if err != nil {
		b.Fatal(err)
	}
	quiet := slog.New(slog.DiscardHandler)
	decodeHandler := func(w http.ResponseWriter, r *http.Request) error {
		args, err := argcheck.Decode[SearchArgs](r, schema)
		if err != nil {
			return err
		}
		_ = args
		w.Header().Set("Content-Type", "application/json")
		_, err = io.WriteString(w, `{"orders":[]}`)
		return err
	}
	routers := map[string]http.Handler{}
	bare := chi.NewRouter()
	bare.Post("/tools/search_orders", func(w http.ResponseWriter, r *http.Request) { _ = searchHandler(w, r) })
	routers["bare"] = bare
	for name, tool := range map[string]http.HandlerFunc{
		"toolerr":                     middleware.ToolFunc("search_orders", searchHandler),
		"toolerr_argcheck_middleware": middleware.ToolFunc("search_orders", searchHandler, schema.Middleware),
		"toolerr_argcheck_decode":     middleware.ToolFunc("search_orders", decodeHandler),
	} {
		r := chi.NewRouter()
		r.Use(middleware.New(middleware.WithLogger(quiet)))
		r.Post("/tools/search_orders", tool)
		routers[name] = r
	}
	for _, name := range []string{"bare", "toolerr", "toolerr_argcheck_middleware", "toolerr_argcheck_decode"} {
		h := routers[name]
		b.Run(name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				req := httptest.NewRequest(http.MethodPost, "/tools/search_orders", strings.NewReader(typicalArgs))
				rec := httptest.NewRecorder()
				h.ServeHTTP(rec, req)
				if rec.Code != http.StatusOK {
					b.Fatalf("status %d: %s", rec.Code, rec.Body)
				}
			}
		})
	}
}

// BenchmarkCheck measures the check alone: a typical valid call from JSON
// and already decoded, and an invalid one with its repairs derived.
func BenchmarkCheck(b *testing.B) {
	schema, err := argcheck.Compile([]byte(searchSchema))
	if err != nil {
		b.Fatal(err)
	}
	b.Run("valid_json", func(b *testing.B) {
		b.ReportAllocs()
		raw := []byte(typicalArgs)
		for b.Loop() {
			if err := schema.CheckJSON(raw); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("valid_decoded", func(b *testing.B) {
		b.ReportAllocs()
		var args any
		if err := json.Unmarshal([]byte(typicalArgs), &args); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if err := schema.Check(args); err != nil {
				b.Fatal(err)
			}
		}
	})
	// For comparison: the decode alone, and the MCP SDK's validator
	// (google/jsonschema-go) on the same decoded value.
	b.Run("decode_only_encoding_json", func(b *testing.B) {
		b.ReportAllocs()
		raw := []byte(typicalArgs)
		for b.Loop() {
			var v any
			if err := json.Unmarshal(raw, &v); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("google_jsonschema_go_valid_decoded", func(b *testing.B) {
		b.ReportAllocs()
		var gs gjs.Schema
		if err := json.Unmarshal([]byte(searchSchema), &gs); err != nil {
			b.Fatal(err)
		}
		resolved, err := gs.Resolve(nil)
		if err != nil {
			b.Fatal(err)
		}
		var args any
		if err := json.Unmarshal([]byte(typicalArgs), &args); err != nil {
			b.Fatal(err)
		}
		for b.Loop() {
			if err := resolved.Validate(args); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("hostile_2000_enum_misses", func(b *testing.B) {
		// 2000 long values that all miss a 500-member enum of long strings:
		// before the repair search was bounded this took 104 s.
		var members, items []string
		for i := range 500 {
			members = append(members, fmt.Sprintf(`"%s%03d"`, strings.Repeat("m", 200), i))
		}
		for i := range 2000 {
			items = append(items, fmt.Sprintf(`"%s%03dx"`, strings.Repeat("m", 200), i%500))
		}
		hostile, err := argcheck.Compile([]byte(`{"type":"object","properties":{"items":{"type":"array","items":{"enum":[` +
			strings.Join(members, ",") + `]}}}}`))
		if err != nil {
			b.Fatal(err)
		}
		raw := []byte(`{"items":[` + strings.Join(items, ",") + `]}`)
		b.SetBytes(int64(len(raw)))
		b.ReportAllocs()
		for b.Loop() {
			if err := hostile.CheckJSON(raw); err == nil {
				b.Fatal("valid")
			}
		}
	})
	b.Run("hostile_32_pattern_rewrites", func(b *testing.B) {
		// 32 values of six words and three kinds of separator that no
		// rewrite makes match a pattern with four literal separators: the
		// separator and case search runs to its bound for each.
		hostile, err := argcheck.Compile([]byte(`{"type":"object","properties":{"items":{"type":"array",` +
			`"items":{"type":"string","pattern":"^[a-z]+(-[a-z]+)*(/[a-z]+)?(\\.[a-z]+)?(_[0-9])?$"}}}}`))
		if err != nil {
			b.Fatal(err)
		}
		items := make([]string, 32)
		for i := range items {
			items[i] = fmt.Sprintf(`"Aa Bb-Cc.Dd Ee-Ff%d"`, i)
		}
		raw := []byte(`{"items":[` + strings.Join(items, ",") + `]}`)
		b.ReportAllocs()
		for b.Loop() {
			if err := hostile.CheckJSON(raw); err == nil {
				b.Fatal("valid")
			}
		}
	})
	b.Run("invalid_two_repairs", func(b *testing.B) {
		b.ReportAllocs()
		raw := []byte(`{"customer_id":"c_8f2a91","status":"Shipped","limit":500}`)
		for b.Loop() {
			if err := schema.CheckJSON(raw); err == nil {
				b.Fatal("valid")
			}
		}
	})
}
