package classify

import (
	"reflect"

	"github.com/toolerr/toolerr/internal/sdkpath"
)

// An SDK's typed error that nothing read becomes INTERNAL_ERROR: a
// slack-go error with no slackerr mapper registered, or an error of a new
// shape that the SDK reader of package translate does not know. UnreadSDK
// names the SDK and the type, so that the middleware and the MCP adapters
// can say so once per type instead of failing silently.

// knownSDK is an SDK whose errors a mapper or a rule of toolerr reads.
type knownSDK struct {
	path   string // the import path prefix of its packages
	name   string
	advice string // what to register or upgrade
}

// knownSDKs are the SDKs UnreadSDK recognizes, by import path prefix.
var knownSDKs = [...]knownSDK{
	{sdkpath.StripeGo, "stripe-go", "toolerr reads stripe-go errors of every major version by their fields (translate.Set.ReadSDKError), and this type has none it knows: upgrade toolerr, or add a mapper of your own for it with WithErrorMappers"},
	{sdkpath.OpenAIGo, "openai-go", "toolerr reads openai-go errors of every major version by their fields (translate.Set.ReadSDKError), and this type has none it knows: upgrade toolerr, or add a mapper of your own for it with WithErrorMappers"},
	{sdkpath.AnthropicGo, "anthropic-sdk-go", "toolerr reads anthropic-sdk-go errors of every major version by their fields (translate.Set.ReadSDKError), and this type has none it knows: upgrade toolerr, or add a mapper of your own for it with WithErrorMappers"},
	{sdkpath.GoGitHub, "go-github", "toolerr reads go-github errors of every major version by their fields (translate.Set.ReadSDKError), and this type has none it knows: upgrade toolerr, or add a mapper of your own for it with WithErrorMappers"},
	{sdkpath.GoogleAPI, "googleapi", "toolerr reads googleapi errors of every major version by their fields (translate.Set.ReadSDKError), and this type has none it knows: upgrade toolerr, or add a mapper of your own for it with WithErrorMappers"},
	{"github.com/slack-go/slack", "slack-go", "register slackerr.Mapper() (github.com/toolerr/toolerr/mappers/slackerr)"},
	{"google.golang.org/grpc", "grpc", "register grpcerr.Mapper() (github.com/toolerr/toolerr/mappers/grpcerr)"},
	{"github.com/aws/aws-sdk-go-v2", "aws-sdk-go-v2", "upgrade toolerr: its AWS rules read smithy-go's API errors"},
	{"github.com/aws/smithy-go", "aws-sdk-go-v2", "upgrade toolerr: its AWS rules read smithy-go's API errors"},
	{"github.com/jackc/pgx", "pgx", "upgrade toolerr: classify.SQLStateMapper reads pgx's SQLSTATE errors"},
	{"github.com/go-sql-driver/mysql", "go-sql-driver", "register mysqlerr.Mapper() (github.com/toolerr/toolerr/mappers/mysqlerr)"},
}

// UnreadSDK returns the SDK whose typed error is in err's chain, its Go
// type ("*stripe.Error") and what to register or upgrade so that toolerr
// reads it, for an error no mapper or rule classified; ok is false when no
// error of the chain comes from a known SDK (stripe-go, openai-go,
// anthropic-sdk-go, go-github, googleapi, slack-go, grpc, aws-sdk-go-v2,
// pgx, go-sql-driver).
func UnreadSDK(err error) (sdk, goType, advice string, ok bool) {
	var k knownSDK
	ok = sdkpath.Find(err, func(e error) bool {
		known, t, found := sdkOf(e)
		if found {
			k, goType = known, t
		}
		return found
	})
	if !ok {
		return "", "", "", false
	}
	return k.name, goType, k.advice, true
}

// sdkOf returns the known SDK that defines e's type, and the type's name.
func sdkOf(e error) (knownSDK, string, bool) {
	t := reflect.TypeOf(e)
	name := t.String()
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	k, ok := sdkForPath(t.PkgPath())
	return k, name, ok
}

// sdkForPath returns the known SDK whose packages path is one of: its
// module path, or a package under it, of any major version
// ("github.com/stripe/stripe-go/v85", ".../api/googleapi").
func sdkForPath(path string) (knownSDK, bool) {
	for _, k := range knownSDKs {
		if sdkpath.Under(path, k.path) {
			return k, true
		}
	}
	return knownSDK{}, false
}
