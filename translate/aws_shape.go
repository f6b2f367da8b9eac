package translate

import (
	"bytes"
	"strings"

	"github.com/toolerr/toolerr/internal/canonheader"
)

// awsRecognizeWindow is how much of a body the shape checks look at.
const awsRecognizeWindow = 2048

// awsCoralSuffix starts the URL suffix AWS's JSON services append to an
// error type ("ValidationException:http://internal.amazon.com/coral/…").
const awsCoralSuffix = ":http://internal.amazon.com/coral/"

// awsBodyShape reports whether r's body is unmistakably an AWS error when
// no AWS header says so (a response relayed by a handler):
//
//   - JSON (awsJson1_0, awsJson1_1): a `__type` member holding an error
//     type, bare or namespaced ("ResourceNotFoundException",
//     "com.amazonaws.dynamodb.v20120810#ValidationException"). The
//     smithy awsJson protocols name `__type` as where the error type is
//     written; WCF's "Type:#Namespace" type hints are not claimed.
//   - JSON (restJson1): a `code` member that is a decorated error type, a
//     shape id with a namespace ("aws.protocoltests.restjson#FooError") or
//     the coral URL suffix. A bare {"code": "…"} is anyone's.
//   - XML: a Query <ErrorResponse><Error><Code> (IAM, STS, SQS, SNS; with
//     or without an amazonaws.com namespace), an EC2
//     <Response><Errors><Error><Code>, or an S3 <Error><Code> that carries
//     S3's <RequestId> or <HostId> member. A bare <Error><Code> is also
//     Azure Storage's and Google Cloud Storage's, so it is not enough.
//
// A response with Azure's request id header is never claimed by its body.
func awsBodyShape(r *Raw) bool {
	if r.Header != nil && canonheader.Value(r.Header, "X-Ms-Request-Id") != "" {
		return false
	}
	b := trimLeftSpace(r.Body)
	if len(b) == 0 {
		return false
	}
	switch b[0] {
	case '{':
		return awsJSONShape(r)
	case '<':
		return awsXMLShape(b)
	}
	return false
}

// awsJSONShape is the JSON half of awsBodyShape.
func awsJSONShape(r *Raw) bool {
	if ct := r.ContentType(); ct != "" && ct != "text/plain" && !strings.Contains(ct, "json") {
		return false
	}
	m := r.object()
	if m == nil {
		return false
	}
	if t := m.str("__type"); t != "" {
		return awsTypeValue(t)
	}
	return awsDecoratedCode(m.str("code"))
}

// awsTypeValue reports whether v is an AWS error type as `__type` holds
// it: an optional namespace and '#', an error name, an optional coral
// suffix. WCF's type hints ("Person:#Contoso.Model") put ":#" where AWS
// puts '#', and are not AWS's.
func awsTypeValue(v string) bool {
	if strings.Contains(v, ":#") {
		return false
	}
	name, suffix := v[:awsSuffixStart(v)], v[awsSuffixStart(v):]
	if suffix != "" && !strings.HasPrefix(suffix, ":http") {
		return false
	}
	ns, code, namespaced := strings.Cut(name, "#")
	if !namespaced {
		code, ns = ns, ""
	}
	return awsErrorName(code) && (!namespaced || awsNamespace(ns))
}

// awsDecoratedCode reports whether v, a restJson1 `code` member, is an
// error type only AWS writes: namespaced or with the coral suffix.
func awsDecoratedCode(v string) bool {
	if v == "" || strings.Contains(v, ":#") {
		return false
	}
	suffixed := strings.HasPrefix(v[awsSuffixStart(v):], awsCoralSuffix)
	if !suffixed && strings.Contains(v, ":") {
		return false
	}
	name := v[:awsSuffixStart(v)]
	ns, code, namespaced := strings.Cut(name, "#")
	if namespaced {
		return awsNamespace(ns) && awsErrorName(code)
	}
	return suffixed && awsErrorName(name)
}

// awsSuffixStart is the index of the first ':' in v, or len(v).
func awsSuffixStart(v string) int {
	if i := strings.IndexByte(v, ':'); i >= 0 {
		return i
	}
	return len(v)
}

// awsErrorName reports whether s looks like an AWS error name: an upper-case
// letter, then letters, digits, '.' and '_' ("InvalidInstanceID.NotFound"),
// at most 128 bytes.
func awsErrorName(s string) bool {
	if s == "" || len(s) > 128 || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for i := 1; i < len(s); i++ {
		if c := s[i]; !(isLetter(c) || c >= '0' && c <= '9' || c == '.' || c == '_') {
			return false
		}
	}
	return true
}

// awsNamespace reports whether s is a smithy namespace: dot-separated
// identifiers ("com.amazonaws.dynamodb.v20120810").
func awsNamespace(s string) bool {
	if s == "" || len(s) > 128 {
		return false
	}
	for part := range strings.SplitSeq(s, ".") {
		if part == "" || !isLetter(part[0]) {
			return false
		}
		for i := 1; i < len(part); i++ {
			if c := part[i]; !(isLetter(c) || c >= '0' && c <= '9' || c == '_') {
				return false
			}
		}
	}
	return true
}

// awsXMLShape is the XML half of awsBodyShape.
func awsXMLShape(b []byte) bool {
	head := b[:min(len(b), awsRecognizeWindow)]
	if !bytes.Contains(head, []byte("<Code>")) {
		return false
	}
	doc, ok := awsDecodeXML(b)
	if !ok {
		return false
	}
	switch doc.XMLName.Local {
	case "ErrorResponse":
		return awsCleanCode(doc.Error.Code) != ""
	case "Response":
		return len(doc.Errors) > 0 && awsCleanCode(doc.Errors[0].Code) != ""
	case "Error":
		e := doc.awsXMLError
		return awsCleanCode(e.Code) != "" && (strings.TrimSpace(e.RequestID) != "" || strings.TrimSpace(e.HostID) != "")
	}
	return false
}
