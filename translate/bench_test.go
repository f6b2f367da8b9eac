package translate

import (
	"context"
	"net/http"
	"os"
	"testing"

	"github.com/toolerr/toolerr/classify"
)

// benchCases are typical error responses of a payment API, a cloud API and
// a CDN in front of an origin.
func benchCases(b *testing.B) map[string]*Raw {
	page, err := os.ReadFile("../testdata/html/cloudflare_522.html")
	if err != nil {
		b.Fatal(err)
	}
	return map[string]*Raw{
		"stripe_json": {
			Method: "POST", Host: "api.stripe.com", Status: 402,
			Header: http.Header{"Content-Type": {"application/json"}, "Request-Id": {"req_8Xq2Lm0Zt4Yv1a"}},
			Body: []byte(`{"error":{"charge":"ch_3PqRsT2eZvKYlo2C1abcdEFG","code":"card_declined","decline_code":"insufficient_funds",` +
				`"doc_url":"https://stripe.com/docs/error-codes/card-declined","message":"Your card has insufficient funds.",` +
				`"request_log_url":"https://dashboard.stripe.com/test/logs/req_8Xq2Lm0Zt4Yv1a?t=1700000000","type":"card_error"}}`),
		},
		"aws_xml": {
			Method: "POST", Host: "sts.amazonaws.com", Status: 400,
			Header: http.Header{"Content-Type": {"text/xml"}, "X-Amzn-Requestid": {"4a4a7f45-3b0c-4d5e-9a7b-2c1d0e9f8a76"}},
			Body: []byte(`<ErrorResponse xmlns="https://sts.amazonaws.com/doc/2011-06-15/"><Error><Type>Sender</Type>` +
				`<Code>Throttling</Code><Message>Rate exceeded</Message></Error>` +
				`<RequestId>4a4a7f45-3b0c-4d5e-9a7b-2c1d0e9f8a76</RequestId></ErrorResponse>`),
		},
		"cloudflare_html": {
			Method: "GET", Host: "api.example.com", Status: 522,
			Header: http.Header{"Content-Type": {"text/html; charset=UTF-8"}, "Server": {"cloudflare"}, "Cf-Ray": {"8a1b2c3d4e5f6a7b-AMS"}},
			Body:   page,
		},
	}
}

// BenchmarkClassifyResponse translates and classifies one error response
// into a *toolerr.Error, as Set.Response does after reading the body.
func BenchmarkClassifyResponse(b *testing.B) {
	keep := func(s string) string { return s }
	s, err := NewSet(classify.New(nil, classify.WithMessageFilter(keep)))
	if err != nil {
		b.Fatal(err)
	}
	ctx := context.Background()
	for _, name := range []string{"stripe_json", "aws_xml", "cloudflare_html"} {
		r := benchCases(b)[name]
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(r.Body)))
			b.ReportAllocs()
			for b.Loop() {
				if s.Classify(ctx, r) == nil {
					b.Fatal("no error")
				}
			}
		})
	}
}

// BenchmarkTranslateNginxPage translates nginx's 502 page, as the
// middleware's error path does for a captured page (translate only).
func BenchmarkTranslateNginxPage(b *testing.B) {
	body, err := os.ReadFile("../testdata/html/nginx_502.html")
	if err != nil {
		b.Fatal(err)
	}
	s, h := Default(), http.Header{"Content-Type": {"text/html"}}
	b.ReportAllocs()
	for b.Loop() {
		if _, ok := s.Translate(&Raw{Status: http.StatusBadGateway, Header: h, Body: body}); !ok {
			b.Fatal("not translated")
		}
	}
}
