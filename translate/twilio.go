package translate

import (
	"bytes"
	"encoding/json"
	"encoding/xml"
	"strconv"
	"strings"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/internal/canonheader"
)

// twilioHosts are Twilio's API hosts (api.twilio.com, verify.twilio.com,
// conversations.twilio.com …).
var twilioHosts = []string{".twilio.com"}

// twilioCodes maps Twilio error codes to toolerr codes. 20500 (internal
// error) is left to the status: a POST that failed inside Twilio may have
// queued the message.
var twilioCodes = map[string]string{
	"20001": toolerr.CodeValidationFailed,    // unknown parameter
	"20002": toolerr.CodeValidationFailed,    // invalid FriendlyName
	"20003": toolerr.CodeUnauthenticated,     // authentication failed
	"20005": toolerr.CodePolicyBlocked,       // account not active (suspended or closed)
	"10001": toolerr.CodePolicyBlocked,       // account is not active
	"20006": toolerr.CodePermissionDenied,    // access denied
	"20008": toolerr.CodePermissionDenied,    // not accessible with test credentials
	"20403": toolerr.CodePermissionDenied,    // forbidden
	"20404": toolerr.CodeNotFound,            // resource not found
	"20429": toolerr.CodeRateLimited,         // too many concurrent requests; safe to retry
	"20503": toolerr.CodeUpstreamUnavailable, // service unavailable
	"21201": toolerr.CodeValidationFailed,    // no 'To' number
	"21211": toolerr.CodeValidationFailed,    // invalid 'To' phone number
	"21212": toolerr.CodeValidationFailed,    // invalid 'From' phone number
	"21214": toolerr.CodeValidationFailed,    // 'To' number cannot be reached
	"21401": toolerr.CodeValidationFailed,    // invalid phone number
	"21602": toolerr.CodeValidationFailed,    // message body required
	"21603": toolerr.CodeValidationFailed,    // 'From' number required
	"21604": toolerr.CodeValidationFailed,    // 'To' number required
	"21606": toolerr.CodeValidationFailed,    // 'From' number cannot send to this destination
	"21614": toolerr.CodeValidationFailed,    // 'To' is not a mobile number
	"21617": toolerr.CodePayloadTooLarge,     // body over 1600 characters
	"21620": toolerr.CodeValidationFailed,    // invalid media URL
	"21408": toolerr.CodePermissionDenied,    // messaging to this region not enabled
	"21608": toolerr.CodePermissionDenied,    // trial account: 'To' not verified
	"21610": toolerr.CodePolicyBlocked,       // recipient unsubscribed (STOP)
	"21611": toolerr.CodeRateLimited,         // 'From' number's queue is full; it drains
	"60200": toolerr.CodeValidationFailed,    // Verify: invalid parameter
	"60202": toolerr.CodeQuotaExhausted,      // Verify: max check attempts; start a new verification
	"60203": toolerr.CodeQuotaExhausted,      // Verify: max send attempts; lifts after 10 minutes
	"60205": toolerr.CodeValidationFailed,    // Verify: SMS to a landline
}

// twilioFields names the parameter that a Twilio code is about.
var twilioFields = map[string]string{
	"21201": "To", "21211": "To", "21214": "To", "21401": "To", "21604": "To",
	"21614": "To", "21408": "To", "21608": "To", "21610": "To", "60205": "To",
	"21212": "From", "21603": "From", "21606": "From", "21611": "From",
	"21602": "Body", "21617": "Body", "21620": "MediaUrl",
}

// twilioRecognizes claims a response with a Twilio-Request-Id header, a JSON
// error whose more_info points at Twilio's error pages, or an XML
// <TwilioResponse>.
func twilioRecognizes(r *Raw) bool {
	if r.Header != nil && canonheader.Value(r.Header, "Twilio-Request-Id") != "" {
		return true
	}
	b := trimLeftSpace(r.Body)
	if len(b) > awsRecognizeWindow {
		b = b[:awsRecognizeWindow]
	}
	return bytes.Contains(b, []byte(`"more_info"`)) && bytes.Contains(b, []byte("twilio.com/docs/errors/")) ||
		bytes.HasPrefix(b, []byte("<TwilioResponse>")) ||
		bytes.HasPrefix(b, []byte("<?xml")) && bytes.Contains(b, []byte("<TwilioResponse>"))
}

// twilioTranslate reads Twilio REST errors, JSON
// ({"code":20404,"message":…,"more_info":…,"status":404}) and the XML
// <TwilioResponse><RestException> form. Twilio's numeric codes become the
// vendor code as decimal strings.
//
// It reads the code, message, documentation link and request id of
// a Twilio failure. Twilio reports every error with a 4xx or 5xx, so a
// response below 400 is never an error.
func twilioTranslate(r *Raw) (classify.Outcome, bool) {
	if r.Status < 400 {
		return classify.Outcome{}, false
	}
	var o classify.Outcome
	var moreInfo string
	b := trimLeftSpace(r.Body)
	switch {
	case len(b) > 0 && b[0] == '{':
		if m := r.object(); m != nil {
			o.VendorCode = twilioCode(m.get("code"))
			o.Message = m.str("message")
			moreInfo = m.str("more_info")
		}
	case len(b) > 0 && b[0] == '<':
		o.VendorCode, o.Message, moreInfo = twilioXML(b)
	}
	o.Field = twilioFields[o.VendorCode]
	if u := docURL(moreInfo); u != "" {
		o.Details = map[string]any{"doc_url": u}
	}
	if r.Header != nil {
		o.RequestID = clipText(canonheader.Value(r.Header, "Twilio-Request-Id"))
	}
	return o, true
}

// twilioCode reads the code member, a JSON number or a string of digits;
// "" for null, absent or anything else.
func twilioCode(raw json.RawMessage) string {
	if isInteger(raw) {
		return twilioDigits(string(raw))
	}
	s, _ := decodeString(raw)
	return twilioDigits(s)
}

// twilioDigits returns s as a canonical positive decimal of at most nine
// digits, else "".
func twilioDigits(s string) string {
	v, err := strconv.ParseInt(strings.TrimSpace(s), 10, 64)
	if err != nil || v <= 0 || v > 999_999_999 {
		return ""
	}
	return strconv.FormatInt(v, 10)
}

// twilioXML reads <TwilioResponse><RestException>, the body capped like
// the AWS XML.
func twilioXML(b []byte) (code, message, moreInfo string) {
	if len(b) > awsMaxXML {
		b = b[:awsMaxXML]
	}
	var doc struct {
		XMLName xml.Name
		Exc     struct {
			Code     string `xml:"Code"`
			Message  string `xml:"Message"`
			MoreInfo string `xml:"MoreInfo"`
		} `xml:"RestException"`
	}
	if xml.NewDecoder(bytes.NewReader(b)).Decode(&doc) != nil || doc.XMLName.Local != "TwilioResponse" {
		return "", "", ""
	}
	return twilioDigits(doc.Exc.Code), clipText(doc.Exc.Message), clipText(doc.Exc.MoreInfo)
}
