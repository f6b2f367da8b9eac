package translate

import (
	"strings"

	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// awsMaxReasons bounds the DynamoDB cancellation reasons read (a
// transaction holds at most 100 items).
const awsMaxReasons = 100

// awsParseJSON reads the JSON protocols and API Gateway: the code from the
// X-Amzn-ErrorType header, else the body's `__type`, else its `code` (a
// bare one on AWS hosts only); the message from `message` or `Message`. found is true when a code was read; the
// message of a code-less body ({"message":"Forbidden"}) is kept anyway.
func awsParseJSON(r *Raw, o *classify.Outcome) (found bool) {
	if r.Header != nil {
		o.VendorCode = awsCleanCode(canonheader.Value(r.Header, "X-Amzn-Errortype"))
	}
	m, ok := awsJSONBody(r)
	if ok {
		if o.VendorCode == "" {
			o.VendorCode = awsCleanCode(m.str("__type"))
		}
		// restJson1 writes the type in "code". A bare one is trusted only
		// on AWS's own hosts: a captured body with one may be anyone's. A
		// decorated one (namespace#Name, or the coral URL suffix) is AWS's
		// wherever it comes from (smithy restJson1 error shapes).
		if o.VendorCode == "" {
			code := m.str("code", "Code")
			if r.Vendor == "aws" || awsHostIn(r.Host, awsHosts) || awsDecoratedCode(code) {
				o.VendorCode = awsCleanCode(code)
			}
		}
		o.Message = m.str("message", "Message", "errorMessage")
		if reasons := awsCancellationReasons(m); reasons != "" {
			o.Details = map[string]any{"cancellation_reasons": reasons}
		}
	}
	return o.VendorCode != ""
}

// awsJSONBody decodes a JSON object body; ok is false for anything else.
func awsJSONBody(r *Raw) (jsonObject, bool) {
	b := trimLeftSpace(r.Body)
	if len(b) == 0 || b[0] != '{' {
		return nil, false
	}
	// AWS JSON media types are application/x-amz-json-1.0 and -1.1.
	if ct := r.ContentType(); ct != "" && ct != "text/plain" && !strings.Contains(ct, "json") {
		return nil, false
	}
	m := r.object()
	return m, m != nil
}

// awsCancellationReasons lists the codes of a DynamoDB
// TransactionCanceledException's CancellationReasons, one per item in order
// ("None,ConditionalCheckFailed"), so the agent sees which item failed;
// "" when there are none.
func awsCancellationReasons(m jsonObject) string {
	reasons := walkArray(m.get("CancellationReasons"), awsMaxReasons)
	if len(reasons) == 0 {
		return ""
	}
	codes := make([]string, 0, len(reasons))
	for _, item := range reasons {
		code := "None"
		if obj := walkObject(item); obj != nil {
			if c := awsCleanCode(obj.str("Code")); c != "" {
				code = c
			}
		}
		codes = append(codes, code)
	}
	return strings.Join(codes, ",")
}
