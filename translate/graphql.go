package translate

import (
	"bytes"
	"encoding/json"
	"strconv"
	"strings"

	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// graphQLTranslate reads GraphQL responses of any server: a top-level
// "errors" array of objects with a "message", and no data. It is generic
// (no vendor): vendor GraphQL APIs with codes of their own (Shopify,
// GitHub) have their own translators, tried first.
//
// It reads a GraphQL error response. Below 400 it claims only a
// body whose errors come without data (or with data whose every root
// field is null): partial results are a success. From 400 on it claims
// only bodies that look like GraphQL (a "data" member, or errors carrying
// locations, path or extensions), leaving plain {"errors":[{"message":…}]}
// REST bodies to the generic JSON translators.
func graphQLTranslate(r *Raw) (classify.Outcome, bool) {
	if !r.IsJSON() {
		return classify.Outcome{}, false
	}
	g, ok := parseGraphQLObject(r.object())
	if !ok {
		return classify.Outcome{}, false
	}
	if r.Status >= 400 {
		if !g.hasData && !g.graphQLish {
			return classify.Outcome{}, false
		}
	} else if !g.noResult {
		return classify.Outcome{}, false
	}
	first := g.errors[0]
	o := classify.Outcome{
		VendorCode: first.code,
		Message:    first.message,
		Field:      first.path,
		RequestID:  canonheader.Value(r.Header, "X-Request-Id"),
	}
	if graphQLRateLimitCodes[strings.ToUpper(first.code)] {
		o.Evidence.RateLimited = true
	}
	return o, true
}

// graphQLRateLimitCodes are extensions.code (or type) values that common
// GraphQL servers use for a rate limit, upper-cased.
var graphQLRateLimitCodes = map[string]bool{
	"RATE_LIMITED":        true,
	"RATELIMITED":         true,
	"RATE_LIMIT_EXCEEDED": true,
	"THROTTLED":           true,
	"TOO_MANY_REQUESTS":   true,
}

// graphQLResponse is the part of a GraphQL response body the translators
// read.
type graphQLResponse struct {
	// errors holds the top-level errors, at least one.
	errors []graphQLError
	// hasData is true when the body has a "data" member, even null.
	hasData bool
	// noResult is true when data is absent or null, or an object whose
	// every member is null: the call returned nothing.
	noResult bool
	// graphQLish is true when some error has locations, path or extensions.
	graphQLish bool
	// extensions is the top-level "extensions" member, raw.
	extensions json.RawMessage
}

// graphQLError is one item of the top-level errors.
type graphQLError struct {
	message string
	// code is extensions.code, else the item's "type" (GitHub), else "".
	code string
	// path is the item's path joined with ".", else "".
	path string
	// ext holds the item's extensions members, raw.
	ext jsonObject
}

// parseGraphQLObject reads a body decoded as a JSON object as a GraphQL
// response. ok is false unless its "errors" is a non-empty array of
// objects, each with a string "message".
func parseGraphQLObject(top jsonObject) (g graphQLResponse, ok bool) {
	if top.get("errors") == nil {
		return g, false
	}
	raws := walkArray(top.get("errors"), graphQLMaxErrors)
	if len(raws) == 0 {
		return g, false
	}
	g.errors = make([]graphQLError, 0, len(raws))
	for _, raw := range raws {
		var e graphQLError
		item := walkObject(raw)
		if item == nil || !graphQLMessage(item.get("message"), &e.message) {
			return graphQLResponse{}, false
		}
		if item.get("locations") != nil || item.get("path") != nil || item.get("extensions") != nil {
			g.graphQLish = true
		}
		e.ext = item.obj("extensions")
		e.code = e.ext.str("code")
		if e.code == "" {
			e.code = item.str("type")
		}
		e.path = graphQLPath(item.get("path"))
		g.errors = append(g.errors, e)
	}
	data := top.get("data")
	present := data != nil
	g.hasData = present
	g.noResult = !present || graphQLEmpty(data)
	g.extensions = top.get("extensions")
	return g, true
}

// graphQLEmpty reports whether data is null or an object whose members
// are all null (every root field failed).
func graphQLEmpty(data json.RawMessage) bool {
	d := bytes.TrimSpace(data)
	if len(d) == 0 || string(d) == "null" {
		return true
	}
	fields := walkObject(d)
	if fields == nil {
		return false
	}
	for _, v := range fields {
		if string(bytes.TrimSpace(v.value)) != "null" {
			return false
		}
	}
	return true
}

// graphQLMaxErrors bounds how many errors of a response are read.
const graphQLMaxErrors = 64

// graphQLMessage reads an error's message into *msg: a JSON string, or
// null (read as ""); false for anything else, or absence.
func graphQLMessage(raw []byte, msg *string) bool {
	if string(raw) == "null" {
		return true
	}
	s, ok := decodeString(raw)
	*msg = s
	return ok
}

// maxPathLen bounds a joined path: longer paths are cut at an element.
const maxPathLen = 256

// graphQLPath joins a GraphQL error path (strings and list indexes) with
// ".": ["createUser", "input", "emails", 0] is "createUser.input.emails.0".
// Anything else than an array of strings and numbers gives "".
func graphQLPath(raw json.RawMessage) string {
	elems := walkArray(raw, maxPathLen)
	if elems == nil {
		return ""
	}
	var b strings.Builder
	for _, el := range elems {
		el = bytes.TrimSpace(el)
		var part string
		switch {
		case len(el) > 0 && el[0] == '"':
			var ok bool
			if part, ok = decodeString(el); !ok {
				return ""
			}
		default:
			n, err := strconv.ParseUint(string(el), 10, 32)
			if err != nil {
				return ""
			}
			part = strconv.FormatUint(n, 10)
		}
		if b.Len()+len(part)+1 > maxPathLen {
			break
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(part)
	}
	return b.String()
}
