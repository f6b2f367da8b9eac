package classify

import (
	"context"
	"errors"
	"fmt"
	"io"
	"testing"
)

// TestUnreadSDKIgnoresOtherErrors: errors of the standard library and of
// the program, wrapped or joined, name no SDK; a deep or cyclic-looking
// chain ends. The SDK side is tested with a real *stripe.Error in
// mappers/stripeerr (unread_test.go), the module that has stripe-go.
func TestUnreadSDKIgnoresOtherErrors(t *testing.T) {
	deep := error(io.EOF)
	for range 100 {
		deep = fmt.Errorf("wrap: %w", deep)
	}
	for _, err := range []error{
		io.EOF, context.DeadlineExceeded, errors.New("boom"),
		fmt.Errorf("charge: %w", io.ErrUnexpectedEOF),
		errors.Join(errors.New("a"), fmt.Errorf("b: %w", io.EOF)),
		deep,
	} {
		if sdk, typ, _, ok := UnreadSDK(err); ok {
			t.Errorf("UnreadSDK(%v) = %q, %q", err, sdk, typ)
		}
	}
}

// TestKnownSDKPaths: a package of any major version under a known SDK's
// module path matches, and a longer name that merely starts the same does
// not.
func TestKnownSDKPaths(t *testing.T) {
	for path, want := range map[string]string{
		"github.com/stripe/stripe-go/v82":              "stripe-go",
		"github.com/stripe/stripe-go/v85":              "stripe-go",
		"github.com/stripe/stripe-go/v76/client":       "stripe-go",
		"github.com/google/go-github/v84/github":       "go-github",
		"github.com/anthropics/anthropic-sdk-go":       "anthropic-sdk-go",
		"google.golang.org/api/googleapi":              "googleapi",
		"google.golang.org/grpc/internal/status":       "grpc",
		"github.com/aws/smithy-go":                     "aws-sdk-go-v2",
		"github.com/jackc/pgx/v5/pgconn":               "pgx",
		"github.com/stripe/stripe-gox":                 "",
		"github.com/toolerr/toolerr/mappers/stripeerr": "",
		"": "",
	} {
		k, ok := sdkForPath(path)
		if ok != (want != "") || k.name != want {
			t.Errorf("sdkForPath(%q) = %q, %v; want %q", path, k.name, ok, want)
		}
	}
	for _, k := range knownSDKs {
		if k.path == "" || k.name == "" || k.advice == "" {
			t.Errorf("incomplete row %+v", k)
		}
	}
}
