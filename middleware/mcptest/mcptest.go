package mcptest

import (
	"context"
	"encoding/json"
	"net/http"
	"testing"

	"github.com/toolerr/toolerr/middleware/mcptool"
)

// Tool is an adapter-neutral tool definition: the adapter registers it on
// its library's server under Name, with these schemas and annotations, and
// runs Handler for each call.
type Tool struct {
	// Name is the tool's name; unique on the server.
	Name string
	// Description is the tool's description, listed as it is.
	Description string
	// InputSchema is the JSON Schema of the arguments (an object schema).
	// The adapter declares it as it is; the library validates the
	// arguments against it (always for the go-sdk, with
	// [ServerConfig.LibraryValidation] for libraries where that is
	// optional).
	InputSchema json.RawMessage
	// OutputSchema is the JSON Schema of the tool's structured output, nil
	// when the tool declares none.
	OutputSchema json.RawMessage
	// Annotations are the tool's behaviour hints.
	Annotations Annotations
	// Handler runs the tool with the call's raw JSON arguments. It may
	// panic. A nil error: the adapter returns out as the result
	// (structuredContent when the tool has an outputSchema, and its JSON as
	// text content).
	Handler func(ctx context.Context, args json.RawMessage) (out any, err error)
}

// Annotations are MCP's tool annotations; a nil hint is not declared, and
// the adapter leaves it to its library's default.
type Annotations struct{ ReadOnly, Destructive, Idempotent *bool }

// ServerConfig is how the suite wants a server built.
type ServerConfig struct {
	// Stateless makes the streamable HTTP handler stateless: no session,
	// each POST served on its own.
	Stateless bool
	// LibraryValidation turns on the library's own input-schema validation
	// where it is optional (mcp-go's server.WithInputSchemaValidation); the
	// go-sdk always validates.
	LibraryValidation bool
	// Options are the toolerr options the adapter installs (mcptool.Option
	// == mcpcore.Option, an alias, and the mcp-go adapter's Option is the
	// same alias). The suite passes its logger, tracer provider and meter
	// provider here.
	Options []mcptool.Option
}

// Adapter is one MCP adapter of toolerr, as the suite drives it.
type Adapter struct {
	// Name names the adapter in failure messages.
	Name string
	// NewHandler returns the streamable HTTP handler of a new server of the
	// adapter's library with tools registered and toolerr installed with
	// cfg.Options. It may fail t; the suite calls it once per server.
	NewHandler func(t testing.TB, tools []Tool, cfg ServerConfig) http.Handler
}

// Run runs every case against a, stateless and stateful, with the go-sdk
// client and with the official TypeScript SDK client. Each server
// configuration and client gets a server of its own, with every case's
// tools; the groups run in parallel, the calls of one group in order in
// one session.
func Run(t *testing.T, a Adapter) {
	t.Helper()
	if a.NewHandler == nil {
		t.Fatalf("mcptest: adapter %q has no NewHandler", a.Name)
	}
	for _, sc := range serverConfigs() {
		t.Run(sc.name, func(t *testing.T) {
			t.Parallel()
			for _, cl := range clients() {
				t.Run(cl.name, func(t *testing.T) {
					t.Parallel()
					runGroup(t, a, sc, cl)
				})
			}
		})
	}
}

// serverConfig is one configuration the suite runs every case under.
type serverConfig struct {
	name              string
	stateless         bool
	libraryValidation bool
}

// serverConfigs are the configurations of [Run]: stateless and stateful
// with the library validating arguments, and stateless without, where a
// library that may skip validation hands every argument to the handler.
func serverConfigs() []serverConfig {
	return []serverConfig{
		{name: "stateless", stateless: true, libraryValidation: true},
		{name: "stateful", stateless: false, libraryValidation: true},
		{name: "stateless without library validation", stateless: true, libraryValidation: false},
	}
}
