// Package sdkpath names the Go SDKs whose errors toolerr reads by their
// fields, by the module path their packages start with, and finds an
// SDK's error in a chain, for the two that look an error's type up by its
// package: translate's ReadSDKError, which reads those errors, and
// classify's UnreadSDK, which names the SDK of an error nothing read. One
// list and one walk, so that the two cannot come to disagree.
package sdkpath

// The module paths, without a major version suffix: every major version
// is read alike.
const (
	StripeGo    = "github.com/stripe/stripe-go"
	OpenAIGo    = "github.com/openai/openai-go"
	AnthropicGo = "github.com/anthropics/anthropic-sdk-go"
	GoGitHub    = "github.com/google/go-github"
	GoogleAPI   = "google.golang.org/api"
)

// Under reports whether the package path pkg is the module path module
// or a package under it, of any major version:
// "github.com/stripe/stripe-go/v85" and "google.golang.org/api/googleapi"
// are, "github.com/stripe/stripe-gone" is not.
func Under(pkg, module string) bool {
	return len(pkg) >= len(module) && pkg[:len(module)] == module && (len(pkg) == len(module) || pkg[len(module)] == '/')
}
