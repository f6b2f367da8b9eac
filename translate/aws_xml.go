package translate

import (
	"encoding/xml"

	"github.com/toolerr/toolerr/classify"
)

// awsMaxXML caps the XML an AWS error is parsed from. AWS error documents
// are a few hundred bytes; a longer body is cut, and then fails to parse.
const awsMaxXML = 64 << 10

// awsXMLError is one AWS XML error: the members of an S3 <Error> root, of
// the <Error> inside a Query <ErrorResponse>, and of an EC2
// <Errors><Error>.
type awsXMLError struct {
	Type         string `xml:"Type"`
	Code         string `xml:"Code"`
	Message      string `xml:"Message"`
	Key          string `xml:"Key"`
	BucketName   string `xml:"BucketName"`
	ArgumentName string `xml:"ArgumentName"`
	Region       string `xml:"Region"`
	Endpoint     string `xml:"Endpoint"`
	RequestID    string `xml:"RequestId"`
	HostID       string `xml:"HostId"` // S3's
}

// awsXMLDoc is any of the three roots: S3's <Error> (its members land in
// the embedded awsXMLError), Query's <ErrorResponse> (Error, RequestId)
// and EC2's <Response> (Errors, RequestID). The tags say where each member
// comes from; awsDecodeXML reads a document as encoding/xml's Decode into
// this type would, but keeps only the first of EC2's errors.
type awsXMLDoc struct {
	XMLName xml.Name
	awsXMLError
	Error     awsXMLError   `xml:"Error"`
	Errors    []awsXMLError `xml:"Errors>Error"`
	RequestID string        `xml:"RequestID"`
}

// awsParseXML reads an AWS XML error body into o. found is false when the
// body is not XML, not one of the AWS error roots, or has no code.
func awsParseXML(body []byte, o *classify.Outcome) (found bool) {
	doc, ok := awsDecodeXML(body)
	if !ok {
		return false
	}
	var e awsXMLError
	requestID := ""
	switch doc.XMLName.Local {
	case "Error": // S3
		e, requestID = doc.awsXMLError, doc.awsXMLError.RequestID
	case "ErrorResponse": // Query protocol, Route 53, CloudFront
		e, requestID = doc.Error, doc.awsXMLError.RequestID
	case "Response": // EC2
		if len(doc.Errors) == 0 {
			return false
		}
		e, requestID = doc.Errors[0], doc.RequestID
	default:
		return false
	}
	code := awsCleanCode(e.Code)
	if code == "" {
		return false
	}
	o.VendorCode = code
	o.Message = clipText(e.Message)
	o.RequestID = clipText(requestID)
	if o.RequestID == "" {
		o.RequestID = clipText(e.RequestID)
	}
	o.Field = awsFieldToken(clipText(e.ArgumentName))
	details := map[string]any{}
	for _, kv := range [...]struct{ key, value string }{
		{"bucket", e.BucketName}, {"key", e.Key}, {"region", e.Region}, {"endpoint", e.Endpoint},
	} {
		if v := clipText(kv.value); v != "" {
			details[kv.key] = v
		}
	}
	if len(details) > 0 {
		o.Details = details
	}
	return true
}
