// Command quickstart serves three tool endpoints behind the toolerr
// middleware, whose failures reach the agent as toolerr errors: one checks
// its arguments against its JSON Schema and answers every violation with
// its field, the allowed values and the repair; one
// relays a carrier's HTML 502 page, which the agent sees as a retryable
// UPSTREAM_UNAVAILABLE; one panics, and the agent sees only INTERNAL_ERROR
// with a request id.
//
//	go run ./examples/quickstart -demo   # start, call the tools, print the bodies, exit
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
	"github.com/toolerr/toolerr/argcheck"
	"github.com/toolerr/toolerr/middleware"
)

func main() {
	demo := flag.Bool("demo", false, "start on a free loopback port, call the tools, print the responses and exit")
	addr := flag.String("addr", "127.0.0.1:8080", "listen address when not in -demo mode")
	flag.Parse()
	if *demo {
		if err := runDemo(context.Background(), os.Stdout); err != nil {
			log.Fatal(err)
		}
		return
	}
	router, err := newRouter("https://carrier.example")
	if err != nil {
		log.Fatal(err)
	}
	log.Printf("serving tools on http://%s", *addr)
	srv := &http.Server{Addr: *addr, Handler: router, ReadHeaderTimeout: 5 * time.Second}
	log.Fatal(srv.ListenAndServe())
}

// newRouter mounts the tools behind the toolerr middleware, which turns a
// returned error, a raw error response and a panic alike into one
// structured error. carrier is the base URL of the shipping carrier that
// track_shipment relays.
func newRouter(carrier string) (http.Handler, error) {
	schema, err := argcheck.Compile(searchOrdersSchema)
	if err != nil {
		return nil, err
	}
	r := chi.NewRouter()
	r.Use(middleware.New())
	r.Method(http.MethodPost, "/tools/search_orders", middleware.Tool("search_orders", searchOrders(schema)))
	r.Method(http.MethodPost, "/tools/track_shipment", middleware.Tool("track_shipment", trackShipment(carrier)))
	r.Post("/tools/export_report", exportReport)
	return r, nil
}

// searchOrdersSchema is search_orders' input schema, as an MCP server or an
// OpenAPI description would publish it.
const searchOrdersSchema = `{
  "type": "object", "additionalProperties": false, "required": ["customer"],
  "properties": {
    "customer": {"type": "string", "pattern": "^cus_[0-9]+$"},
    "status": {"enum": ["open", "shipped", "cancelled"]},
    "limit": {"type": "integer", "minimum": 1, "maximum": 100, "default": 20, "description": "Results per page; values above 100 are capped to 100."}
  }
}`

// searchArgs are search_orders' arguments.
type searchArgs struct {
	Customer string `json:"customer"`
	Status   string `json:"status,omitempty"`
	Limit    int    `json:"limit,omitempty"`
}

// searchOrders checks its arguments against its schema: a call that breaks
// it gets every violation with the field, the allowed values and the repair.
func searchOrders(schema *argcheck.Schema) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		if _, err := argcheck.Decode[searchArgs](r, schema); err != nil {
			return err
		}
		w.Header().Set("Content-Type", "application/json")
		_, err := io.WriteString(w, `{"orders":[]}`)
		return err
	}
}

// trackShipment relays the carrier's answer as it is, error pages included:
// the middleware replaces a raw error response with a classified one.
func trackShipment(carrier string) func(http.ResponseWriter, *http.Request) error {
	return func(w http.ResponseWriter, r *http.Request) error {
		toolerr.RecordVendor(r.Context(), "carrier")
		req, err := http.NewRequestWithContext(r.Context(), http.MethodGet, carrier+"/v1/track/1Z999", nil)
		if err != nil {
			return err
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return err // a timeout or refused connection is classified as such
		}
		defer resp.Body.Close()
		w.Header().Set("Content-Type", resp.Header.Get("Content-Type"))
		w.WriteHeader(resp.StatusCode)
		_, err = io.Copy(w, resp.Body)
		return err
	}
}

// exportReport has a bug: it indexes a nil map entry and panics.
func exportReport(w http.ResponseWriter, r *http.Request) {
	var templates map[string][]string
	_, _ = io.WriteString(w, templates["quarterly"][3]) // panics: index out of range
}

// carrierDown is the shipping carrier behind a proxy that answers with its
// HTML error page.
func carrierDown() http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/html")
		w.Header().Set("Server", "nginx/1.25.3")
		w.WriteHeader(http.StatusBadGateway)
		_, _ = io.WriteString(w, "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n"+
			"<center><h1>502 Bad Gateway</h1></center>\r\n<hr><center>nginx/1.25.3</center>\r\n</body>\r\n</html>\r\n")
	})
}

// runDemo serves the tools on a free loopback port, calls each once as an
// agent would, and prints what the agent receives.
func runDemo(ctx context.Context, out io.Writer) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	carrierLn, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return err
	}
	carrier := &http.Server{Handler: carrierDown(), ReadHeaderTimeout: 5 * time.Second}
	go func() { _ = carrier.Serve(carrierLn) }()
	defer func() { _ = carrier.Close() }()

	router, err := newRouter("http://" + carrierLn.Addr().String())
	if err != nil {
		return err
	}
	srv := &http.Server{Handler: router, ReadHeaderTimeout: 5 * time.Second, ErrorLog: log.New(io.Discard, "", 0)}
	go func() { _ = srv.Serve(ln) }()
	defer func() { _ = srv.Close() }()
	base := "http://" + ln.Addr().String()
	calls := []struct{ tool, body string }{
		{"search_orders", `{"customer":"cus_42","status":"Shipped","limit":500}`},
		{"track_shipment", `{"tracking_number":"1Z999"}`},
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
