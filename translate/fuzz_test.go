package translate

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/toolerr/toolerr"
)

// fuzzSet is the Set of the fuzz targets: every built-in translator.
func fuzzSet(f *testing.F) (*Set, []string) {
	s, err := NewSet(nil)
	if err != nil {
		f.Fatal(err)
	}
	hosts := []string{""} // a captured response: recognition decides
	for _, h := range s.hosts {
		hosts = append(hosts, "api."+h.suffix)
	}
	return s, hosts
}

// fuzzRaw builds a response for the fuzz targets: the host by index, so
// every vendor's parser is reached, and the status clamped to 100..599.
func fuzzRaw(hosts []string, hostIndex uint, status int, contentType, body string) *Raw {
	if status < 100 || status > 599 {
		status = 400 + (status%200+200)%200
	}
	h := http.Header{}
	if contentType != "" && utf8.ValidString(contentType) {
		h.Set("Content-Type", contentType)
	}
	return &Raw{Method: "POST", Host: hosts[hostIndex%uint(len(hosts))], Status: status, Header: h, Body: []byte(body)}
}

// checkFuzzOutcome is the property of every target: no panic (the call
// returned), a failure always gives an error, and the error renders within
// the contract.
func checkFuzzOutcome(t *testing.T, s *Set, r *Raw) {
	t.Helper()
	e := s.Classify(context.Background(), r)
	if r.Status >= 400 && e == nil {
		t.Fatalf("status %d gave no error", r.Status)
	}
	if e == nil {
		return
	}
	if err := toolerr.Validate(e.WithRequestID("fuzz-1").AppendJSON(nil)); err != nil {
		t.Fatalf("rendering breaks the contract: %v", err)
	}
}

func FuzzTranslateJSON(f *testing.F) {
	s, hosts := fuzzSet(f)
	for _, seed := range []string{
		`{"error":{"type":"card_error","code":"card_declined","param":"amount","message":"declined"}}`,
		`{"__type":"com.amazonaws#ThrottlingException","message":"slow"}`,
		`{"error":{"code":429,"status":"RESOURCE_EXHAUSTED","details":[{"@type":"type.googleapis.com/google.rpc.RetryInfo","retryDelay":"1.5s"}]}}`,
		`[{"errorCode":"REQUIRED_FIELD_MISSING","fields":["Name"],"message":"m"}]`,
		`{"ok":false,"error":"ratelimited"}`,
		`{"errors":[{"message":"Throttled","extensions":{"code":"THROTTLED"}}],"extensions":{"cost":{"requestedQueryCost":100,"throttleStatus":{"currentlyAvailable":10,"restoreRate":50}}}}`,
		`{"type":"about:blank","title":"t","status":400,"detail":"d"}`,
		`{"errors":{"summary":"required"}}`, `{"a":[[[[[[[[[[]]]]]]]]]]}`, `{"error":`, `null`, `"x"`,
	} {
		f.Add(uint(0), 400, "application/json", seed)
		f.Add(uint(7), 200, "application/json", seed)
	}
	f.Fuzz(func(t *testing.T, host uint, status int, contentType, body string) {
		checkFuzzOutcome(t, s, fuzzRaw(hosts, host, status, contentType, body))
	})
}

func FuzzTranslateXML(f *testing.F) {
	s, hosts := fuzzSet(f)
	for _, seed := range []string{
		`<?xml version="1.0"?><Error><Code>NoSuchKey</Code><Message>m</Message><RequestId>r</RequestId></Error>`,
		`<ErrorResponse><Error><Type>Sender</Type><Code>Throttling</Code><Message>m</Message></Error><RequestId>r</RequestId></ErrorResponse>`,
		`<Response><Errors><Error><Code>RequestLimitExceeded</Code><Message>m</Message></Error></Errors><RequestID>r</RequestID></Response>`,
		`<TwilioResponse><RestException><Code>20003</Code><Message>m</Message><Status>401</Status></RestException></TwilioResponse>`,
		`<Error><Code>`, `<a><b><c><d><e></e></d></c></b></a>`, `<!DOCTYPE x [<!ENTITY a "b">]><x>&a;</x>`,
	} {
		f.Add(uint(0), 503, "application/xml", seed)
		f.Add(uint(3), 200, "text/xml", seed)
	}
	f.Fuzz(func(t *testing.T, host uint, status int, contentType, body string) {
		checkFuzzOutcome(t, s, fuzzRaw(hosts, host, status, contentType, body))
	})
}

func FuzzTranslateHTML(f *testing.F) {
	s, hosts := fuzzSet(f)
	for _, seed := range []string{
		`<html><head><title>example.com | 522: Connection timed out</title></head><body>cloudflare</body></html>`,
		`<html><head><title>502 Bad Gateway</title></head><body><center>nginx</center></body></html>`,
		`<!DOCTYPE HTML PUBLIC "-//W3C//DTD HTML 4.01 Transitional//EN"><HTML><HEAD><TITLE>ERROR: The request could not be satisfied</TITLE></HEAD></HTML>`,
		`error code: 1020`, `upstream connect error or disconnect/reset before headers. reset reason: connection failure`,
		`no healthy upstream`, `<html><title>Just a moment...</title>`, `<html`,
	} {
		f.Add(uint(0), 502, "text/html", "cloudflare", seed)
		f.Add(uint(0), 403, "text/plain", "envoy", seed)
	}
	f.Fuzz(func(t *testing.T, host uint, status int, contentType, server, body string) {
		r := fuzzRaw(hosts, host, status, contentType, body)
		if server != "" && utf8.ValidString(server) && !strings.ContainsAny(server, "\r\n") {
			r.Header.Set("Server", server)
			r.Header.Set("Cf-Ray", "8a1b2c3d4e5f6a7b-AMS")
		}
		checkFuzzOutcome(t, s, r)
	})
}

// fuzzHeaderNames are the headers translators and the classifier read.
var fuzzHeaderNames = []string{
	"Retry-After", "Retry-After-Ms", "X-Amz-Retry-After", "X-Amzn-ErrorType", "X-Ratelimit-Remaining",
	"X-Ratelimit-Reset", "X-Ratelimit-Reset-Requests", "X-Ratelimit-Reset-Tokens", "Stripe-Should-Retry",
	"X-Should-Retry", "Cf-Mitigated", "Request-Id", "X-Request-Id", "X-Amzn-Requestid",
	"Anthropic-Ratelimit-Requests-Reset", "X-Hubspot-Ratelimit-Interval-Milliseconds", "Server",
}

func FuzzTranslateHeaders(f *testing.F) {
	s, hosts := fuzzSet(f)
	f.Add(uint(0), 429, uint(0), "120", "")
	f.Add(uint(1), 403, uint(4), "0", `{"message":"API rate limit exceeded"}`)
	f.Add(uint(2), 400, uint(3), "ValidationException:http://internal.amazon.com/coral", `{}`)
	f.Add(uint(0), 429, uint(7), "6m0s", `{"error":{"code":"rate_limit_exceeded"}}`)
	f.Add(uint(0), 503, uint(10), "challenge", ``)
	f.Fuzz(func(t *testing.T, host uint, status int, header uint, value, body string) {
		r := fuzzRaw(hosts, host, status, "application/json", body)
		if utf8.ValidString(value) && !strings.ContainsAny(value, "\r\n") {
			r.Header.Set(fuzzHeaderNames[header%uint(len(fuzzHeaderNames))], value)
		}
		checkFuzzOutcome(t, s, r)
	})
}
