package translate

import (
	"bytes"
	"context"
	"encoding/json"
	"encoding/xml"
	"net/http"
	"strings"
	"testing"

	"github.com/toolerr/toolerr/classify"
)

// The benchmarks below set the cost of translating an error against a
// floor: the least work that reads the same facts (bytes.Index for a
// page's title and code, a typed decode of the same body). Each runs the
// floor and the translation as sub-benchmarks, so that one run gives both
// and benchstat the ratio. Every iteration reads a fresh Raw: a Raw caches
// its decoded body, and a warm cache would measure nothing.

// benchSet returns a Set with the message filter off, as a service with its
// own filter would run it.
func benchSet(b *testing.B) *Set {
	keep := func(s string) string { return s }
	s, err := NewSet(classify.New(nil, classify.WithMessageFilter(keep)))
	if err != nil {
		b.Fatal(err)
	}
	return s
}

// benchClassify classifies a fresh copy of base in every iteration.
func benchClassify(b *testing.B, s *Set, base *Raw) {
	ctx := context.Background()
	benchFresh(b, base, func(r *Raw) bool { return s.Classify(ctx, r) != nil })
}

// benchTranslate translates a fresh copy of base in every iteration,
// without the classifier.
func benchTranslate(b *testing.B, s *Set, base *Raw) {
	benchFresh(b, base, func(r *Raw) bool {
		_, ok := s.Translate(r)
		return ok
	})
}

// benchFresh runs read on a fresh copy of base in every iteration.
func benchFresh(b *testing.B, base *Raw, read func(*Raw) bool) {
	b.SetBytes(int64(len(base.Body)))
	b.ReportAllocs()
	for b.Loop() {
		r := &Raw{Method: base.Method, Host: base.Host, Status: base.Status, Header: base.Header,
			Body: base.Body, Truncated: base.Truncated, Vendor: base.Vendor, Idempotent: base.Idempotent}
		if !read(r) {
			b.Fatal("no error")
		}
	}
}

// benchVersusFloor runs floor, which reads r's body and reports whether
// it found what it looks for, as the sub-benchmark "floor"; r translated
// by the Set as "translate"; and r translated and classified into a
// *toolerr.Error as "classify".
func benchVersusFloor(b *testing.B, r *Raw, floor func() bool) {
	b.Run("floor", func(b *testing.B) {
		b.SetBytes(int64(len(r.Body)))
		b.ReportAllocs()
		for b.Loop() {
			if !floor() {
				b.Fatal("the floor found nothing")
			}
		}
	})
	s := benchSet(b)
	b.Run("translate", func(b *testing.B) { benchTranslate(b, s, r) })
	b.Run("classify", func(b *testing.B) { benchClassify(b, s, r) })
	b.Run("build_only", func(b *testing.B) { benchBuildOnly(b, s, r) })
}

// benchBuildOnly classifies the outcome of r, translated once before the
// loop, in every iteration: what "classify" costs beyond "translate",
// without reading the body. Its ratio to the floor is the least that
// "classify" can reach however fast the translation.
func benchBuildOnly(b *testing.B, s *Set, base *Raw) {
	r := *base
	o, ok := s.Translate(&r)
	if !ok {
		b.Fatal("not translated")
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		if s.classifier.ClassifyCause(ctx, o, newVendorError(o.Vendor, o.Status, o.VendorCode, o.Message)) == nil {
			b.Fatal("no error")
		}
	}
}

// BenchmarkCloudflarePage sets a Cloudflare 522 page, translated and
// classified, against finding its title and error code with bytes.Index.
func BenchmarkCloudflarePage(b *testing.B) {
	r := benchCases(b)["cloudflare_html"]
	benchVersusFloor(b, r, func() bool {
		title, code := bytes.Index(r.Body, []byte("<title>")), bytes.Index(r.Body, []byte("Error code "))
		return title >= 0 && code > title
	})
}

// stripeBody is the error object of the Stripe benchmark, typed.
type stripeBody struct {
	Error struct {
		Charge        string `json:"charge"`
		Code          string `json:"code"`
		DeclineCode   string `json:"decline_code"`
		DocURL        string `json:"doc_url"`
		Message       string `json:"message"`
		Param         string `json:"param"`
		RequestLogURL string `json:"request_log_url"`
		Type          string `json:"type"`
	} `json:"error"`
}

// BenchmarkStripeJSON sets a Stripe card error, translated and classified,
// against json.Unmarshal of the same body into a struct of its fields.
func BenchmarkStripeJSON(b *testing.B) {
	r := benchCases(b)["stripe_json"]
	benchVersusFloor(b, r, func() bool {
		var v stripeBody
		return json.Unmarshal(r.Body, &v) == nil && v.Error.Code != ""
	})
}

// awsBody is the error of the AWS Query benchmark, typed.
type awsBody struct {
	Error struct {
		Type    string `xml:"Type"`
		Code    string `xml:"Code"`
		Message string `xml:"Message"`
	} `xml:"Error"`
	RequestID string `xml:"RequestId"`
}

// BenchmarkAWSXML sets an AWS Query (STS) throttling error, translated and
// classified, against xml.Unmarshal of the same body into a struct.
func BenchmarkAWSXML(b *testing.B) {
	r := benchCases(b)["aws_xml"]
	benchVersusFloor(b, r, func() bool {
		var v awsBody
		return xml.Unmarshal(r.Body, &v) == nil && v.Error.Code != ""
	})
}

// javaTraceBody returns a JSON error body of about size bytes whose
// "trace" member is an escaped Java stack trace, as a Spring service
// answers a 500.
func javaTraceBody(size int) []byte {
	var t strings.Builder
	t.WriteString(`java.lang.IllegalStateException: order 4411 has no \"customer\"\n`)
	for i := 0; t.Len() < size; i++ {
		t.WriteString(`\tat com.example.orders.OrderService.place(OrderService.java:`)
		t.WriteString(strings.Repeat("1", 1+i%3))
		t.WriteString(`)\n`)
	}
	return []byte(`{"error":{"code":"INTERNAL","message":"Internal server error","status":500,"trace":"` +
		t.String()[:size-120] + `"},"timestamp":"2026-11-26T10:00:00Z"}`)
}

// BenchmarkJavaTrace translates a 500 whose JSON body carries an escaped
// Java stack trace, of host unknown (a captured response, so every
// translator's Recognizes runs): 16 KiB, 60 KiB (whole, under the cap) and
// 1 MiB (cut at DefaultBodyCap, as Set.Response reads it). From the cap
// upward the cost must stay flat.
func BenchmarkJavaTrace(b *testing.B) {
	s := benchSet(b)
	for _, c := range []struct {
		name string
		size int
	}{{"16KiB", 16 << 10}, {"60KiB", 60 << 10}, {"1MiB", 1 << 20}} {
		body := javaTraceBody(c.size)
		truncated := len(body) > DefaultBodyCap
		if truncated {
			body = body[:DefaultBodyCap]
		}
		r := &Raw{Method: "POST", Status: 500, Header: http.Header{"Content-Type": {"application/json"}},
			Body: body, Truncated: truncated}
		b.Run(c.name, func(b *testing.B) { benchClassify(b, s, r) })
	}
}
