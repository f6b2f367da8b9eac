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
	// provider here, unknown tools answered with a result, and
	// idempotency over a memory store of the server's own.
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
	// caller is who the client is to the server's idempotency.
	caller caller
}

// caller is who a group's client is to the server: what idempotency keys
// and the duplicate guard are scoped by (mcpcore.Once).
type caller int

const (
	// callerBearer: the client sends an Authorization header with every
	// request, whose digest is the caller.
	callerBearer caller = iota
	// callerSession: the client sends no credentials; its MCP session is
	// the caller.
	callerSession
	// callerAnonymous: the client sends no credentials to a stateless
	// server, so nothing says who it is: a keyed call is refused with
	// UNAUTHENTICATED, and a keyless repeat is not guarded.
	callerAnonymous
)

// bearerToken is the credential of a [callerBearer] client; it is no
// secret of the suite's (the server never checks it).
const bearerToken = "Bearer mcptest-agent-7c1e"

// header returns what the client of sc sends with every request.
func (sc serverConfig) header() http.Header {
	if sc.caller == callerBearer {
		return http.Header{"Authorization": {bearerToken}}
	}
	return nil
}

// serverConfigs are the configurations of [Run]: stateless and stateful
// with the library validating arguments, and stateless without, where a
// library that may skip validation hands every argument to the handler.
// Their clients are the three callers idempotency knows: one with
// credentials, a session, and nobody.
func serverConfigs() []serverConfig {
	return []serverConfig{
		{name: "stateless", stateless: true, libraryValidation: true, caller: callerBearer},
		{name: "stateful", stateless: false, libraryValidation: true, caller: callerSession},
		{name: "stateless without library validation", stateless: true, libraryValidation: false, caller: callerAnonymous},
	}
}
