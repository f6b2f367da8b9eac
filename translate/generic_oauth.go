package translate

import (
	"strings"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/asciifold"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// oauthCodes are the registered OAuth 2.0 error codes.
var oauthCodes = map[string]string{
	// RFC 6749 §5.2 (token endpoint) and §4.1.2.1 (authorization endpoint).
	"invalid_request":           toolerr.CodeValidationFailed,
	"invalid_client":            toolerr.CodeUnauthenticated,
	"invalid_grant":             toolerr.CodeUnauthenticated, // refresh token or code expired or revoked
	"unauthorized_client":       toolerr.CodePermissionDenied,
	"unsupported_grant_type":    toolerr.CodeValidationFailed,
	"unsupported_response_type": toolerr.CodeValidationFailed,
	"invalid_scope":             toolerr.CodeValidationFailed,
	"access_denied":             toolerr.CodePermissionDenied,
	"server_error":              toolerr.CodeUpstreamUnclassified,
	"temporarily_unavailable":   toolerr.CodeUpstreamUnavailable,
	// RFC 6750 §3.1 (bearer tokens).
	"invalid_token":      toolerr.CodeUnauthenticated,
	"insufficient_scope": toolerr.CodePermissionDenied,
	// RFC 8628 §3.5 (device grant) and RFC 7009 §2.2.1 (revocation).
	"slow_down":              toolerr.CodeRateLimited,
	"expired_token":          toolerr.CodeUnauthenticated,
	"unsupported_token_type": toolerr.CodeValidationFailed,
}

// oauthVendor scopes the OAuth 2.0 codes in the classifier.
const oauthVendor = "oauth2"

// oauthGenericTranslate reads the standard OAuth 2.0 errors any
// authorization or resource server returns: the token endpoint's {"error":
// "invalid_grant", "error_description": …, "error_uri": …} (RFC 6749 §5.2,
// RFC 8628 §3.5, RFC 7009 §2.2.1) and a resource server's WWW-Authenticate:
// Bearer error="invalid_token" (RFC 6750 §3). Unlike the other generic
// formats it has a name, "oauth2", because its codes are standard and the
// status alone misreads them: invalid_grant arrives as 400 but means the
// credentials, not the arguments, must change.
//
// It reads a failure (status >= 400) whose JSON "error" member or
// WWW-Authenticate Bearer challenge names a registered OAuth error code.
func oauthGenericTranslate(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 {
		return classify.Outcome{}, false
	}
	if r.IsJSON() {
		if top := r.object(); top != nil {
			code := top.str("error")
			if _, known := oauthCodes[code]; known {
				o := classify.Outcome{VendorCode: code, Message: top.str("error_description"), RequestID: requestIDOf(top, r)}
				if u := docURL(top.str("error_uri")); u != "" {
					o.Details = map[string]any{"doc_url": u}
				}
				return o, true
			}
		}
	}
	code, desc := oauthBearerChallenge(canonheader.Value(r.Header, "Www-Authenticate"))
	if _, known := oauthCodes[code]; !known || len(trimLeftSpace(r.Body)) > 0 && r.IsJSON() {
		// A JSON body of another shape says more than the header.
		return classify.Outcome{}, false
	}
	return classify.Outcome{VendorCode: code, Message: desc, RequestID: requestIDOf(nil, r)}, true
}

// oauthBearerChallenge reads error and error_description from a Bearer
// challenge: Bearer realm="api", error="invalid_token",
// error_description="The access token expired". Quoted values hold no
// escaped quotes in practice; an unterminated one ends the header.
func oauthBearerChallenge(h string) (code, desc string) {
	h = strings.TrimSpace(h)
	if len(h) > 2048 || !asciifold.HasPrefix(h, "bearer") {
		return "", ""
	}
	rest := h[len("bearer"):]
	for rest != "" {
		rest = strings.TrimLeft(rest, " ,\t")
		eq := strings.IndexByte(rest, '=')
		if eq < 0 {
			break
		}
		name := strings.ToLower(strings.TrimSpace(rest[:eq]))
		rest = strings.TrimLeft(rest[eq+1:], " \t")
		var value string
		if strings.HasPrefix(rest, `"`) {
			end := strings.IndexByte(rest[1:], '"')
			if end < 0 {
				value, rest = rest[1:], ""
			} else {
				value, rest = rest[1:1+end], rest[2+end:]
			}
		} else {
			end := strings.IndexAny(rest, ", \t")
			if end < 0 {
				end = len(rest)
			}
			value, rest = rest[:end], rest[end:]
		}
		switch name {
		case "error":
			code = value
		case "error_description":
			desc = value
		}
	}
	return code, desc
}
