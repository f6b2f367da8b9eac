package toolerrconnect

import (
	"context"
	"errors"
	"maps"
	"net"
	"strconv"
	"strings"
	"time"

	"connectrpc.com/connect"
	"google.golang.org/genproto/googleapis/rpc/errdetails"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// Vendor is the vendor name of the outcomes [Mapper] reads: upstream.vendor
// of a downstream Connect or gRPC failure, and the name of its code table.
const Vendor = "connect"

// Domain is the ErrorInfo domain of the errors the interceptor sends: its
// reason is then a toolerr code, and its metadata the contract's members
// (see the package documentation).
const Domain = "toolerr"

// maxDetails bounds the details of one error that are read or kept.
const maxDetails = 16

// mapper reads *connect.Error values; it holds nothing mutable.
type mapper struct{}

// Mapper returns the classify.ErrorMapper of the *connect.Error a Connect
// client call returns (a downstream's failure), for
// middleware.WithErrorMappers and classify.WithErrorMappers. It reads:
//
//   - the Connect code, by the gRPC status code documentation
//     (RESOURCE_EXHAUSTED is RATE_LIMITED, UNAVAILABLE is
//     UPSTREAM_UNAVAILABLE, ...); UNAVAILABLE and DEADLINE_EXCEEDED may
//     have taken effect, so they are retryable only for idempotent calls;
//   - the message, through the classifier's message filter;
//   - RetryInfo: its delay is the error's retry_after_ms (capped by the
//     classifier), not a default;
//   - BadRequest: the first field violation is the field, all of them the
//     violations;
//   - ErrorInfo: its reason is the vendor code (upstream.code; the
//     Connect code still decides the class), its domain and metadata are
//     details; a request id in its metadata (request_id, requestId) or in
//     RequestInfo or the X-Request-Id header, when valid, is
//     upstream.request_id. An ErrorInfo of [Domain], sent by a service with
//     this interceptor, names a toolerr code (details.reason), which
//     decides the class when the code table knows it (the built-in codes),
//     else the Connect code does; upstream.code is then the Connect code,
//     and its retry_after_ms metadata is the delay when no RetryInfo is;
//   - QuotaFailure on RESOURCE_EXHAUSTED: QUOTA_EXHAUSTED, not retryable;
//   - Help: the first https link as details.doc_url.
//
// A *connect.Error that did not come off the wire (connect.IsWireError is
// false: the client failed before an answer) is read by the Go-error rules
// when it wraps a network or context error (a refused dial is transient
// and retryable), and by its code otherwise. The mapper's code table is
// registered when it is added with WithErrorMappers. It is safe for
// concurrent use.
func Mapper() classify.ErrorMapper { return mapper{} }

// VendorTables returns the code table of [Vendor]: the google.rpc.Code
// names and the toolerr codes of toolerr.Default (an ErrorInfo reason of
// [Domain]), each to its toolerr code.
func (mapper) VendorTables() map[string]map[string]string {
	return map[string]map[string]string{Vendor: vendorTable()}
}

// vendorTable is the table VendorTables returns, a new map each time.
func vendorTable() map[string]string {
	t := maps.Clone(downstreamTable)
	for _, d := range toolerr.Default().Defs() {
		if _, taken := t[d.Code]; !taken {
			t[d.Code] = d.Code
		}
	}
	return t
}

// MapError reads the *connect.Error in err's chain; an error without one
// is not the mapper's.
func (mapper) MapError(err error) (classify.Outcome, bool) {
	var ce *connect.Error
	if !errors.As(err, &ce) || ce == nil {
		return classify.Outcome{}, false
	}
	return outcomeOf(ce), true
}

// outcomeOf is the downstream outcome ce stands for.
func outcomeOf(ce *connect.Error) classify.Outcome {
	o := classify.Outcome{Vendor: Vendor}
	if !connect.IsWireError(ce) {
		if cause := ce.Unwrap(); cause != nil && goError(cause) {
			// No answer came back: the Go error says what happened.
			o.Err = cause
			return o
		}
	}
	name := codeName(ce.Code())
	o.VendorCode, o.ClassCode = name, name
	o.Message = ce.Message()
	switch ce.Code() {
	case connect.CodeUnavailable, connect.CodeDeadlineExceeded:
		o.UnknownOutcome = true
	}
	info := readDetails(ce.Details(), &o)
	if info.quota && ce.Code() == connect.CodeResourceExhausted {
		o.ClassCode = quotaName
	}
	switch {
	case info.domain == Domain && toolerr.ValidCode(info.reason):
		// Our own contract from a downstream toolerr service: its code
		// decides when the table knows it, else the Connect code does.
		o.ClassCode = info.reason
		if o.Details == nil {
			o.Details = map[string]any{}
		}
		o.Details["reason"] = info.reason
		if o.Delay == 0 && info.retryAfter > 0 {
			o.Delay = info.retryAfter
		}
	case info.reason != "":
		o.VendorCode = info.reason // the vendor's finer code, reported; the Connect code decides
	}
	if o.RequestID == "" {
		if id := ce.Meta().Get("X-Request-Id"); toolerr.ValidRequestID(id) {
			o.RequestID = id
		}
	}
	if o.Details == nil {
		o.Details = map[string]any{}
	}
	o.Details["connect_code"] = name
	return o
}

// goError reports whether err is a Go error of a call that got no answer:
// a network error of an outbound call, or a context's end.
func goError(err error) bool {
	if errors.Is(err, context.Canceled) || errors.Is(err, context.DeadlineExceeded) {
		return true
	}
	// Every error classify.Outbound accepts implements net.Error (an
	// http.Client's *url.Error, a dial's *net.OpError, a driver's own):
	// one cheap look spares the handler's own errors its full walk.
	var ne net.Error
	return errors.As(err, &ne) && classify.Outbound(err)
}

// detailInfo is what readDetails found beyond the outcome's fields.
type detailInfo struct {
	domain, reason string
	quota          bool
	retryAfter     time.Duration // ErrorInfo metadata retry_after_ms of Domain
}

// readDetails adds what the google.rpc details say to o. A detail whose
// type is not linked in, or whose bytes do not decode, is skipped.
func readDetails(details []*connect.ErrorDetail, o *classify.Outcome) detailInfo {
	var info detailInfo
	put := func(k, v string) {
		if v == "" || len(o.Details) >= maxDetails {
			return
		}
		if o.Details == nil {
			o.Details = map[string]any{}
		}
		o.Details[k] = v
	}
	for i, d := range details {
		if i == maxDetails {
			break
		}
		msg, err := d.Value()
		if err != nil {
			continue
		}
		switch m := msg.(type) {
		case *errdetails.RetryInfo:
			if rd := m.GetRetryDelay(); rd != nil && rd.IsValid() && rd.AsDuration() > 0 {
				o.Delay = rd.AsDuration()
			}
		case *errdetails.ErrorInfo:
			if info.reason != "" {
				continue
			}
			info.domain, info.reason = m.GetDomain(), m.GetReason()
			md := m.GetMetadata()
			for _, k := range [...]string{"request_id", "requestId"} {
				if id := md[k]; o.RequestID == "" && toolerr.ValidRequestID(id) {
					o.RequestID = id
				}
			}
			if info.domain == Domain {
				if ms, err := strconv.ParseInt(md["retry_after_ms"], 10, 64); err == nil && ms > 0 && ms < int64(time.Hour/time.Millisecond) {
					info.retryAfter = time.Duration(ms) * time.Millisecond
				}
				continue // our own members: the reason and delay say it all
			}
			put("reason", info.reason)
			put("domain", info.domain)
			for k, v := range md {
				put("metadata."+k, v)
			}
		case *errdetails.BadRequest:
			for j, fv := range m.GetFieldViolations() {
				if j == 0 {
					o.Field = fv.GetField()
				}
				if j < toolerr.MaxViolations {
					o.Violations = append(o.Violations, toolerr.Violation{
						Field: classify.FieldPointer(fv.GetField()), Reason: fv.GetDescription()})
				}
			}
		case *errdetails.QuotaFailure:
			info.quota = true
		case *errdetails.RequestInfo:
			if id := m.GetRequestId(); o.RequestID == "" && toolerr.ValidRequestID(id) {
				o.RequestID = id
			}
		case *errdetails.Help:
			for _, l := range m.GetLinks() {
				if strings.HasPrefix(l.GetUrl(), "https://") {
					put("doc_url", l.GetUrl())
					break
				}
			}
		}
	}
	return info
}
