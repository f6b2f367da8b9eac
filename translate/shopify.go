package translate

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// shopifyHeaders are response headers only Shopify sends.
var shopifyHeaders = [...]string{
	"X-Shopify-Shop-Api-Call-Limit",
	"X-Shopify-Api-Version",
	"X-Shopify-Stage",
	"X-Shopid",
	"X-Shardid",
}

// shopifyRecognizes claims a response with a Shopify header, or a GraphQL body
// with Shopify's query-cost extension.
func shopifyRecognizes(r *Raw) bool {
	for _, h := range shopifyHeaders {
		if r.Header.Get(h) != "" {
			return true
		}
	}
	return bytes.Contains(r.Body, []byte(`"throttleStatus"`)) && bytes.Contains(r.Body, []byte(`"requestedQueryCost"`))
}

// shopifyTranslate reads the Shopify Admin APIs' errors: the REST
// dialect ({"errors": "Not Found"}, {"errors": {"title": ["can't be
// blank"]}}) and the GraphQL dialect (top-level errors with
// extensions.code, THROTTLED with the query-cost throttle status; see
// shopify_graphql.go).
//
// REST errors carry no code. Where REST reports a condition that the
// GraphQL Admin API names with a code, the translator uses that code, so
// both APIs classify it the same way: a 423 locked shop is SHOP_INACTIVE,
// a 429 "Daily variant creation limit reached" is
// VARIANT_THROTTLE_EXCEEDED.
//
// It reads a GraphQL error body at any status, else a REST error
// body from 400 on. Below 400 only GraphQL errors without a result are
// errors; a 200 with data (userErrors included) is a success.
func shopifyTranslate(r *Raw) (classify.Outcome, bool) {
	if g, ok := parseGraphQLObject(r.object()); ok {
		if r.Status < 400 && !g.noResult {
			return classify.Outcome{}, false
		}
		return shopifyGraphQL(r, g), true
	}
	if r.Status < 400 {
		return classify.Outcome{}, false
	}
	return shopifyREST(r), true
}

// shopifyREST reads a REST error body. Shopify writes "errors" as a
// string, an array of strings, or an object of field → messages; OAuth
// endpoints write "error" and "error_description".
func shopifyREST(r *Raw) classify.Outcome {
	o := classify.Outcome{RequestID: canonheader.Value(r.Header, "X-Request-Id")}
	if body := r.object(); body != nil {
		o.Message, o.Field = shopifyErrors(body.get("errors"))
		if o.Message == "" {
			o.Message = body.str("error_description", "error")
		}
	}
	switch {
	case r.Status == http.StatusLocked:
		o.VendorCode = "SHOP_INACTIVE"
	case r.Status == http.StatusTooManyRequests && strings.Contains(strings.ToLower(o.Message), "variant creation limit"):
		o.VendorCode = "VARIANT_THROTTLE_EXCEEDED"
		o.Field = "" // the record the limit stopped, not an input to fix
	}
	return o
}

// shopifyErrors reads the REST "errors" member: its first message, and
// for an object its first key as the field (but not Rails' "base", which
// names the record as a whole). The message of a field error is "<field>
// <message>", as Shopify's own admin shows it.
func shopifyErrors(raw json.RawMessage) (message, field string) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "", ""
	}
	switch raw[0] {
	case '"':
		return textOf(raw), ""
	case '[':
		return stringOrFirst(raw), ""
	case '{':
		key, value, ok := firstMember(raw)
		if !ok {
			return "", ""
		}
		msg := stringOrFirst(value)
		if key == "base" {
			return msg, ""
		}
		if msg != "" {
			msg = key + " " + msg
		}
		return msg, key
	}
	return "", ""
}

// shopifyCodes maps the GraphQL Admin API's top-level extensions.code
// values (and the static validation codes of its GraphQL engine) to
// toolerr codes. userErrors are not here: they come with data and are the
// tool's business.
var shopifyCodes = map[string]string{
	"THROTTLED":         toolerr.CodeRateLimited,
	"MAX_COST_EXCEEDED": toolerr.CodeValidationFailed, // the query itself costs more than the bucket holds
	"ACCESS_DENIED":     toolerr.CodePermissionDenied,
	"SHOP_INACTIVE":     toolerr.CodePolicyBlocked, // frozen, locked or fraud-held shop: the merchant must act
	// Shopify's changelog "Improved GraphQL errors" (shopify.dev): "Internal
	// error. Looks like something went wrong on our end." A passing
	// failure on Shopify's side; a mutation may have run, so it is
	// retried only when the caller says the call is idempotent.
	"INTERNAL_SERVER_ERROR":        toolerr.CodeUpstreamUnavailable,
	"VARIANT_THROTTLE_EXCEEDED":    toolerr.CodeQuotaExhausted, // 1,000 new variants a day past 50,000
	"undefinedField":               toolerr.CodeValidationFailed,
	"undefinedType":                toolerr.CodeValidationFailed,
	"argumentLiteralsIncompatible": toolerr.CodeValidationFailed,
	"argumentNotAccepted":          toolerr.CodeValidationFailed,
	"missingRequiredArguments":     toolerr.CodeValidationFailed,
	"variableMismatch":             toolerr.CodeValidationFailed,
}
