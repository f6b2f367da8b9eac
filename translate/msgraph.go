package translate

import (
	"bytes"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// msGraphMaxDepth bounds how deep the innerError chain is followed.
const msGraphMaxDepth = 8

// msGraphRecognizes reports whether a response of unknown host is a Graph
// error: Graph's x-ms-ags-diagnostic header with an error body, or an error
// body whose innerError carries Graph's request-id or date.
func msGraphRecognizes(r *Raw) bool {
	if r.Status < 400 || !bytes.Contains(r.Body, []byte(`"error"`)) {
		return false
	}
	e := msGraphErrorOf(r)
	if e == nil || e.str("code") == "" {
		return false
	}
	if canonheader.Value(r.Header, "X-Ms-Ags-Diagnostic") != "" {
		return true
	}
	inner := msGraphInner(e)
	return inner != nil && (inner.str("request-id") != "" || inner.str("date") != "")
}

// msGraphErrorOf returns the error object of a Graph error body, or nil.
func msGraphErrorOf(r *Raw) jsonObject {
	return r.errorObject()
}

// msGraphInner returns the innerError object of e (Graph spells it
// innerError, OneDrive innererror), or nil.
func msGraphInner(e jsonObject) jsonObject {
	if raw := e.get("innerError"); raw != nil {
		return readObject(raw)
	}
	return e.obj("innererror")
}

// msGraphTranslate reads Microsoft Graph errors:
// {"error":{"code","message","target","details":[…],"innerError":{"code",
// "date","request-id","client-request-id","innerError":{…}}}}. Graph nests
// innerError objects (OneDrive chains its codes from general to
// specific), so the vendor code is the most specific code of the chain
// that means something. Delays come from Retry-After, which the classifier
// reads.
//
// It reads a Graph error body. Graph sends no error bodies with a
// success status.
func msGraphTranslate(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 {
		return classify.Outcome{}, false
	}
	e := msGraphErrorOf(r)
	if e == nil {
		return classify.Outcome{}, false
	}
	outer := e.str("code")
	o := classify.Outcome{Message: e.str("message"), Field: e.str("target")}
	if o.Field == "" {
		for _, item := range e.items("details") {
			if t := readObject(item).str("target"); t != "" {
				o.Field = t
				break
			}
		}
	}
	// Walk the chain: codes from the outermost to the innermost, and the
	// first request id met.
	codes := []string{outer}
	for level, depth := msGraphInner(e), 0; level != nil && depth < msGraphMaxDepth; level, depth = msGraphInner(level), depth+1 {
		if c := level.str("code"); c != "" {
			codes = append(codes, c)
		}
		if o.RequestID == "" {
			o.RequestID = level.str("request-id")
		}
	}
	o.VendorCode = msGraphPick(codes)
	if o.VendorCode == "" && o.Message == "" {
		return classify.Outcome{}, false
	}
	if o.RequestID == "" {
		o.RequestID = canonheader.Value(r.Header, "Request-Id")
	}
	if o.RequestID == "" {
		o.RequestID = canonheader.Value(r.Header, "Client-Request-Id")
	}
	if msGraphUnknownOutcome[o.VendorCode] {
		o.Evidence.Retry = unknownOutcomeAdvice(r)
	}
	return o, true
}

// msGraphPick chooses the vendor code of a chain listed outermost first:
// the innermost code the table maps; else the innermost code that is not
// generic, so that an unknown specific code is counted as unmapped; else
// the outermost code.
func msGraphPick(codes []string) string {
	for i := len(codes) - 1; i >= 0; i-- {
		if _, ok := msGraphCodes[codes[i]]; ok && !msGraphGeneric[codes[i]] {
			return codes[i]
		}
	}
	for i := len(codes) - 1; i >= 0; i-- {
		if codes[i] != "" && !msGraphGeneric[codes[i]] {
			return codes[i]
		}
	}
	return codes[0]
}

// msGraphGeneric are codes that say less than the status: an inner code
// that is one of these never replaces a more specific outer one.
var msGraphGeneric = map[string]bool{
	"generalException": true, "UnknownError": true, "unknownError": true,
	"InternalServerError": true, "BadRequest": true, "badRequest": true,
	"invalidRequest": true, "Forbidden": true, "NotFound": true, "Unauthorized": true,
}

// msGraphUnknownOutcome are the codes of a server failure after which the
// request may have run: retryable only when it is idempotent.
var msGraphUnknownOutcome = map[string]bool{"generalException": true}

// msGraphCodes is the table behind Codes.
var msGraphCodes = map[string]string{
	// Graph's documented codes.
	"accessDenied":                toolerr.CodePermissionDenied,
	"activityLimitReached":        toolerr.CodeRateLimited,
	"generalException":            toolerr.CodeUpstreamUnavailable, // not retried unless idempotent
	"invalidRange":                toolerr.CodeValidationFailed,
	"invalidRequest":              toolerr.CodeValidationFailed,
	"itemNotFound":                toolerr.CodeNotFound,
	"malwareDetected":             toolerr.CodePolicyBlocked,
	"nameAlreadyExists":           toolerr.CodeConflict,
	"notAllowed":                  toolerr.CodePermissionDenied,
	"notSupported":                toolerr.CodeNotImplemented,
	"resourceModified":            toolerr.CodePreconditionFailed,
	"resyncRequired":              toolerr.CodePreconditionFailed,
	"syncStateNotFound":           toolerr.CodePreconditionFailed,
	"serviceNotAvailable":         toolerr.CodeUpstreamUnavailable,
	"quotaLimitReached":           toolerr.CodeQuotaExhausted,
	"unauthenticated":             toolerr.CodeUnauthenticated,
	"TooManyRequests":             toolerr.CodeRateLimited,
	"throttledRequest":            toolerr.CodeRateLimited,
	"ApplicationThrottled":        toolerr.CodeRateLimited,
	"ServiceUnavailable":          toolerr.CodeUpstreamUnavailable,
	"InvalidAuthenticationToken":  toolerr.CodeUnauthenticated,
	"AuthenticationError":         toolerr.CodeUnauthenticated,
	"Authentication_ExpiredToken": toolerr.CodeUnauthenticated,
	"CompactToken_ParsingFailed":  toolerr.CodeUnauthenticated,
	"BadRequest":                  toolerr.CodeValidationFailed,
	"invalidFileNameCharacters":   toolerr.CodeValidationFailed,
	"invalidName":                 toolerr.CodeValidationFailed,
	"fileSystemLimitExceeded":     toolerr.CodeQuotaExhausted,

	// Directory (Azure AD) codes.
	"Request_ResourceNotFound":                toolerr.CodeNotFound,
	"Request_BadRequest":                      toolerr.CodeValidationFailed,
	"Request_UnsupportedQuery":                toolerr.CodeValidationFailed,
	"Request_MultipleObjectsWithSameKeyValue": toolerr.CodeConflict,
	"Request_ThrottledTemporarily":            toolerr.CodeRateLimited,
	"Authorization_RequestDenied":             toolerr.CodePermissionDenied,
	"Authorization_IdentityNotFound":          toolerr.CodeUnauthenticated,
	"Authentication_Unauthorized":             toolerr.CodeUnauthenticated,
	"Directory_QuotaExceeded":                 toolerr.CodeQuotaExhausted,
	"ResourceNotFound":                        toolerr.CodeNotFound,

	// Exchange (mail, calendar) codes.
	"ErrorItemNotFound":           toolerr.CodeNotFound,
	"ErrorAccessDenied":           toolerr.CodePermissionDenied,
	"ErrorInvalidIdMalformed":     toolerr.CodeValidationFailed,
	"ErrorInvalidRecipients":      toolerr.CodeValidationFailed,
	"ErrorQuotaExceeded":          toolerr.CodeQuotaExhausted,
	"ErrorExceededMessageLimit":   toolerr.CodeQuotaExhausted,
	"ErrorIrresolvableConflict":   toolerr.CodePreconditionFailed,
	"ErrorMessageSizeExceeded":    toolerr.CodePayloadTooLarge,
	"MailboxNotEnabledForRESTAPI": toolerr.CodeUpstreamMisconfigured,
}
