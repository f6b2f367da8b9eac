// Command quickstart serves two tool endpoints whose failures reach the agent
// as toolerr errors: one rejects an argument with the field, the allowed
// values and a suggested value; one panics, and the agent sees only
// INTERNAL_ERROR with a request id.
//
//	go run ./examples/quickstart -demo   # start, call both tools, print the bodies, exit
//	go run ./examples/quickstart         # serve on -addr
package main

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"log"
	"net"
	"net/http"
	"os"
	"strings"
	"time"

	"github.com/go-chi/chi/v5"
	"github.com/toolerr/toolerr"
)

func main() {
	demo := flag.Bool("demo", false, "start on a free loopback port, call both tools, print the responses and exit")
	addr := flag.String("addr", "127.0.0.1:8080", "listen address when not in -demo mode")
	flag.Parse()
	if *demo {
		if err := runDemo(context.Background(), os.Stdout); err != nil {
			log.Fatal(err)
		}
		return
	}
	log.Printf("serving tools on http://%s", *addr)
	srv := &http.Server{Addr: *addr, Handler: newRouter(), ReadHeaderTimeout: 5 * time.Second}
	log.Fatal(srv.ListenAndServe())
}

// newRouter mounts the two tools. Until the middleware package lands, the
// panic recovery below stands in for it.
func newRouter() http.Handler {
	r := chi.NewRouter()
	r.Use(recoverAsToolError)
	r.Post("/tools/search_orders", searchOrders)
	r.Post("/tools/export_report", exportReport)
	return r
}

// searchOrders rejects a page size over 100 the way an agent can act on.
func searchOrders(w http.ResponseWriter, r *http.Request) {
	var args struct {
		Customer string `json:"customer"`
		Limit    int    `json:"limit"`
	}
	if err := json.NewDecoder(io.LimitReader(r.Body, 1<<20)).Decode(&args); err != nil {
		toolerr.Write(w, r, toolerr.Default().New(toolerr.CodeValidationFailed, "The body is not valid JSON."))
		return
	}
	if args.Limit < 1 || args.Limit > 100 {
		toolerr.Write(w, r, toolerr.Default().
			New(toolerr.CodeValidationFailed, fmt.Sprintf("limit must be between 1 and 100; got %d.", args.Limit)).
			WithField("limit").
			WithAllowedValues(toolerr.Range{Minimum: 1, Maximum: 100}).
			WithSuggestedValue(100).
			WithHint("Reduce limit to 100 or less and page with the returned cursor.").
			WithExampleRequest(map[string]any{"customer": args.Customer, "limit": 100}).
			WithTool("search_orders"))
		return
	}
	w.Header().Set("Content-Type", "application/json")
	_, _ = io.WriteString(w, `{"orders":[]}`)
}

// exportReport has a bug: it indexes a nil map entry and panics.
func exportReport(w http.ResponseWriter, r *http.Request) {
	var templates map[string][]string
	_, _ = io.WriteString(w, templates["quarterly"][3]) // panics: index out of range
}

// recoverAsToolError turns a panic into INTERNAL_ERROR. The panic value and
// stack go to the server log only, never to the response.
func recoverAsToolError(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		defer func() {
			if v := recover(); v != nil {
				if v == http.ErrAbortHandler {
					panic(v)
				}
				reqID := toolerr.NewRequestID()
				log.Printf("panic in %s (request %s): %v", r.URL.Path, reqID, v)
				e := toolerr.Default().New(toolerr.CodeInternal, "").WithRequestID(reqID)
				if err, ok := v.(error); ok {
					e = e.WithCause(err)
				}
				toolerr.Write(w, r, e)
			}
		}()
		next.ServeHTTP(w, r)
	})
}

// runDemo serves the tools on a free loopback port, calls each once as an
// agent would, and prints what the agent receives.
func runDemo(ctx context.Context, out io.Writer) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: newRouter(), ReadHeaderTimeout: 5 * time.Second, ErrorLog: log.New(io.Discard, "", 0)}
	go func() { _ = srv.Serve(ln) }()
	defer func() { _ = srv.Close() }()
	base := "http://" + ln.Addr().String()
	calls := []struct{ tool, body string }{
		{"search_orders", `{"customer":"cus_42","limit":500}`},
		{"export_report", `{"period":"2026-Q3"}`},
	}
	client := &http.Client{Timeout: 10 * time.Second}
	for _, c := range calls {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, base+"/tools/"+c.tool, strings.NewReader(c.body))
		if err != nil {
			return err
		}
		req.Header.Set("Content-Type", "application/json")
		resp, err := client.Do(req)
		if err != nil {
			return err
		}
		body, err := io.ReadAll(resp.Body)
		_ = resp.Body.Close()
		if err != nil {
			return err
		}
		if err := toolerr.Validate(body); err != nil {
			return errors.Join(fmt.Errorf("%s: response breaks the contract", c.tool), err)
		}
		fmt.Fprintf(out, "POST /tools/%s %s\n-> %d %s\n", c.tool, c.body, resp.StatusCode, resp.Header.Get("Content-Type"))
		var pretty bytes.Buffer
		if err := json.Indent(&pretty, body, "", "  "); err != nil {
			return err
		}
		fmt.Fprintf(out, "%s\n\n", pretty.Bytes())
	}
	return nil
}
