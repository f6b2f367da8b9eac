package classify

import (
	"context"
	"database/sql"
	"fmt"
	"net/http"
	"testing"

	"github.com/toolerr/toolerr"
)

func benchClassifier(b *testing.B) *Classifier {
	c := New(nil)
	if err := c.RegisterVendor("stripe", map[string]string{
		"resource_missing": toolerr.CodeNotFound, "card_declined": toolerr.CodePaymentRequired,
		"rate_limit": toolerr.CodeRateLimited, "lock_timeout": toolerr.CodeUpstreamUnavailable,
	}); err != nil {
		b.Fatal(err)
	}
	return c
}

// BenchmarkDecideStatus classifies a bare status: it must not allocate.
func BenchmarkDecideStatus(b *testing.B) {
	c := benchClassifier(b)
	o := Outcome{Method: http.MethodGet, Status: http.StatusServiceUnavailable}
	b.ReportAllocs()
	for b.Loop() {
		if d := c.Decide(o); d.Code != toolerr.CodeUpstreamUnavailable {
			b.Fatal(d.Code)
		}
	}
}

// BenchmarkDecideVendorCode classifies a translated vendor error with headers.
func BenchmarkDecideVendorCode(b *testing.B) {
	c := benchClassifier(b)
	h := http.Header{}
	h.Set("Retry-After", "2")
	h.Set("Request-Id", "req_8fK2aa")
	o := Outcome{Method: http.MethodPost, Status: 429, Header: h, Vendor: "stripe", VendorCode: "rate_limit"}
	b.ReportAllocs()
	for b.Loop() {
		if d := c.Decide(o); d.Code != toolerr.CodeRateLimited {
			b.Fatal(d.Code)
		}
	}
}

// BenchmarkClassify includes building the *toolerr.Error.
func BenchmarkClassify(b *testing.B) {
	c := benchClassifier(b)
	ctx := context.Background()
	b.Run("status", func(b *testing.B) {
		o := Outcome{Method: http.MethodGet, Status: http.StatusServiceUnavailable}
		b.ReportAllocs()
		for b.Loop() {
			_ = c.Classify(ctx, o)
		}
	})
	b.Run("vendor_code", func(b *testing.B) {
		o := Outcome{Method: http.MethodPost, Status: 402, Vendor: "stripe", VendorCode: "card_declined", RequestID: "req_8fK2aa"}
		b.ReportAllocs()
		for b.Loop() {
			_ = c.Classify(ctx, o)
		}
	})
}

// pgError stands for pgx's *pgconn.PgError in the benchmark: the mapper
// sees only its SQLState method.
type pgError struct{ code string }

func (e *pgError) Error() string    { return "ERROR: duplicate key value (SQLSTATE " + e.code + ")" }
func (e *pgError) SQLState() string { return e.code }

// apiError stands for a smithy API error of the AWS SDK (the mapper sees
// only its methods), with the HTTP status of its response.
type apiError struct{ code, msg string }

func (e *apiError) Error() string        { return e.code + ": " + e.msg }
func (e *apiError) ErrorCode() string    { return e.code }
func (e *apiError) ErrorMessage() string { return e.msg }
func (e *apiError) HTTPStatusCode() int  { return http.StatusBadRequest }

// BenchmarkClassifyTyped compares classifying a handler's typed errors
// through the mappers with classifying a bare status into an error: the
// issue's budget is 2x the bare status.
func BenchmarkClassifyTyped(b *testing.B) {
	c := benchClassifier(b)
	ctx := context.Background()
	b.Run("bare_status", func(b *testing.B) {
		b.ReportAllocs()
		o := Outcome{Method: http.MethodPost, Status: http.StatusConflict}
		for b.Loop() {
			if e := c.Classify(ctx, o); e.Code != toolerr.CodeConflict {
				b.Fatal(e.Code)
			}
		}
	})
	b.Run("sqlstate_wrapped", func(b *testing.B) {
		b.ReportAllocs()
		err := fmt.Errorf("create user: %w", &pgError{code: "23505"})
		for b.Loop() {
			if e, _ := c.HandlerError(ctx, err, http.MethodPost, false); e.Code != toolerr.CodeConflict {
				b.Fatal(e.Code)
			}
		}
	})
	b.Run("aws_throttle_wrapped", func(b *testing.B) {
		b.ReportAllocs()
		err := fmt.Errorf("get item: %w", &apiError{code: "ThrottlingException", msg: "Rate exceeded"})
		for b.Loop() {
			if e, _ := c.HandlerError(ctx, err, http.MethodGet, false); e.Upstream.Code != "ThrottlingException" {
				b.Fatal(e.Code)
			}
		}
	})
	b.Run("vendor_code_with_message", func(b *testing.B) {
		// The same facts from a translated response, for comparison.
		b.ReportAllocs()
		o := Outcome{Method: http.MethodGet, Status: http.StatusBadRequest, Vendor: "aws", VendorCode: "ThrottlingException", Message: "Rate exceeded"}
		for b.Loop() {
			_ = c.Classify(ctx, o)
		}
	})
	b.Run("sql_no_rows_wrapped", func(b *testing.B) {
		b.ReportAllocs()
		err := fmt.Errorf("load order: %w", sql.ErrNoRows)
		for b.Loop() {
			if e, _ := c.HandlerError(ctx, err, http.MethodGet, false); e.Code != toolerr.CodeNotFound {
				b.Fatal(e.Code)
			}
		}
	})
}
