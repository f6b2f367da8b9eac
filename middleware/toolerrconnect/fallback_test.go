package toolerrconnect_test

import (
	"context"
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"connectrpc.com/connect"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"google.golang.org/protobuf/types/known/wrapperspb"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/middleware/toolerrconnect"
)

// A fallback declared for a procedure is offered in its ErrorInfo (the
// hint and the actions) over Connect, gRPC and gRPC-Web, and the guard
// holds: no mutating fallback after an auth failure, nor after a timeout
// of a procedure with side effects; one free of side effects gets it.
func TestFallbacksThroughConnect(t *testing.T) {
	const procRead = "/toolerr.test.v1.TestService/Read"
	fbs := []toolerr.Fallback{
		{Tool: "charge_backup", On: []toolerr.Category{toolerr.CategoryAuth, toolerr.CategoryTransient}, Mutates: true},
		{Tool: "charge_status", On: []toolerr.Category{toolerr.CategoryAuth, toolerr.CategoryTransient}},
	}
	ic := toolerrconnect.NewInterceptor(toolerrconnect.WithLogger(quiet),
		toolerrconnect.WithFallbacks(procFail, fbs...), toolerrconnect.WithFallbacks(procRead, fbs...))
	fail := func(_ context.Context, req *connect.Request[wrapperspb.StringValue]) (*connect.Response[wrapperspb.StringValue], error) {
		return nil, toolerr.Default().New(req.Msg.GetValue(), "")
	}
	mux := http.NewServeMux()
	mux.Handle(procFail, connect.NewUnaryHandler(procFail, fail, connect.WithInterceptors(ic)))
	mux.Handle(procRead, connect.NewUnaryHandler(procRead, fail, connect.WithInterceptors(ic),
		connect.WithIdempotency(connect.IdempotencyNoSideEffects)))
	url := startServer(t, mux).URL

	for _, p := range protocols {
		offered := func(proc, code string) []string {
			t.Helper()
			client := connect.NewClient[wrapperspb.StringValue, wrapperspb.StringValue](h2cClient(), url+proc, p.opts...)
			_, err := client.CallUnary(context.Background(), connect.NewRequest(wrapperspb.String(code)))
			var ce *connect.Error
			require.ErrorAs(t, err, &ce)
			md := connectDetails(t, ce).info.GetMetadata()
			var actions []string
			if raw, ok := md["actions"]; ok {
				require.NoError(t, json.Unmarshal([]byte(raw), &actions))
			}
			tools := toolerr.FallbackTools(&toolerr.Error{Actions: actions})
			for _, fb := range fbs {
				assert.Equal(t, strings.Contains(strings.Join(tools, " "), fb.Tool), strings.Contains(md["hint"], fb.Tool), "%s hint %q", p.name, md["hint"])
			}
			return tools
		}
		both := []string{"charge_backup", "charge_status"}
		assert.Equal(t, both, offered(procFail, toolerr.CodeUpstreamUnavailable), p.name)
		assert.Equal(t, []string{"charge_status"}, offered(procFail, toolerr.CodeUnauthenticated), p.name)
		assert.Equal(t, []string{"charge_status"}, offered(procFail, toolerr.CodeToolTimeout), p.name)
		assert.Equal(t, both, offered(procRead, toolerr.CodeToolTimeout), p.name+": no side effects")
		assert.Nil(t, offered(procFail, toolerr.CodeValidationFailed), p.name)
	}
}
