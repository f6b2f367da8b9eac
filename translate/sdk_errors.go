package translate

import (
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/sdkpath"
)

// An SDK's typed error is a Go type of one major version of the SDK:
// *stripe.Error of stripe-go v82 and of v85 are two types, and a mapper
// built against one does not see the other. What the error carries has
// not changed across those versions: stripe-go keeps the status, code,
// type, param, decline code and request id in fields of stable names, and
// the last response's raw body; a Stainless-generated SDK (openai-go,
// anthropic-sdk-go) keeps the status, the *http.Response and the raw JSON
// body; go-github keeps the *http.Response and the decoded body; googleapi
// keeps the status, headers and body. ReadSDKError reads those by name,
// with the standard library only, and gives the body to the vendor's
// translator, so that every major version of these SDKs, the next one
// included, is read by the same rules as the response relayed.

// sdkReader reads the errors of one SDK.
type sdkReader struct {
	path string // the import path prefix of the SDK's packages
	read func(s *Set, e error, f sdkFields) (classify.Outcome, bool)
}

// sdkReaders are the SDKs ReadSDKError reads, by import path prefix.
var sdkReaders = [...]sdkReader{
	{sdkpath.StripeGo, (*Set).readStripe},
	{sdkpath.OpenAIGo, stainlessReader(openAISDK)},
	{sdkpath.AnthropicGo, stainlessReader(anthropicSDK)},
	{sdkpath.GoGitHub, (*Set).readGitHub},
	{sdkpath.GoogleAPI, (*Set).readGoogle},
}

// ReadSDKError reads the first error in err's chain that an SDK toolerr
// knows returned (stripe-go, openai-go, anthropic-sdk-go, go-github,
// googleapi; any major version) by what it carries, through the vendor's
// translator of this Set: the outcome it stands for, as the mappers under
// mappers/ return it. ok is false when the chain holds no such error, or
// one that carries nothing to read.
//
// [NewSet] registers it with its classifier (classify's
// RegisterSDKReader), after the mappers the classifier was built with,
// so the middleware, mcptool and retrygate read these SDKs' errors with
// no mapper registered.
func (s *Set) ReadSDKError(err error) (classify.Outcome, bool) {
	var o classify.Outcome
	found := sdkpath.Find(err, func(e error) bool {
		r := readerOf(e)
		if r == nil {
			return false // most errors of a chain: nothing copied for them
		}
		f, ok := fieldsOf(e)
		if !ok {
			return false
		}
		o, ok = r.read(s, e, f)
		return ok
	})
	if !found {
		return classify.Outcome{}, false
	}
	return o, true
}

// readerOf returns the reader of the SDK e's type comes from, or nil.
func readerOf(e error) *sdkReader {
	path := pkgPath(e)
	if path == "" {
		return nil
	}
	for i := range sdkReaders {
		if sdkpath.Under(path, sdkReaders[i].path) {
			return &sdkReaders[i]
		}
	}
	return nil
}

// translateKept reads a body an SDK kept through the translator of
// vendor: ok is false when the status is no failure, the body is empty,
// or no translator read it; a gateway's translator may have (the outcome
// then names another vendor, or none). The body is cut at
// the Set's body cap, as a relayed response's is. Method and idempotency
// are cleared: they are the classifier's to fill from the call.
func (s *Set) translateKept(vendor, method string, r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 || len(r.Body) == 0 {
		return classify.Outcome{}, false
	}
	if len(r.Body) > s.bodyCap {
		r.Body, r.Truncated = r.Body[:s.bodyCap], true
	}
	r.Vendor, r.Method = vendor, method
	o, ok := s.Translate(r)
	if !ok {
		return classify.Outcome{}, false
	}
	o.Method, o.Idempotent = "", false
	return o, true
}
