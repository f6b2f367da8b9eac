package grpcerr

import (
	"strings"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/translate"
)

// maxDetailValues bounds what the details of one status contribute.
const maxDetailValues = 16

// mapper is the gRPC ErrorMapper; it registers its code tables. It is
// only read after Mapper returns.
type mapper struct {
	domains map[string]domainTable
	google  map[string]string // translate's Google table
}

// Mapper returns the mapper of gRPC status errors, with its code table:
// add it with classify.WithErrorMappers, or the middleware's and mcptool's
// WithErrorMappers. ErrorInfo reasons of the domain googleapis.com are
// read by translate's Google rules and table (a Google API's gRPC error
// and its JSON twin are classified alike); [WithDomain] adds a service's
// own domain. The mapper is safe for concurrent use.
func Mapper(opts ...Option) classify.ErrorMapper {
	m := &mapper{
		domains: map[string]domainTable{GoogleDomain: {vendor: googleVendor}},
		google:  translate.VendorCodes(googleVendor),
	}
	for _, o := range opts {
		if o != nil {
			o(m)
		}
	}
	return m
}

// VendorTables returns the gRPC code table and the tables of the ErrorInfo
// domains, registered when the mapper is added to a classifier.
func (m *mapper) VendorTables() map[string]map[string]string {
	tables := map[string]map[string]string{Vendor: table}
	for _, dt := range m.domains {
		switch {
		case dt.reasons != nil:
			tables[dt.vendor] = dt.reasons
		case len(m.google) > 0:
			tables[dt.vendor] = m.google
		}
	}
	return tables
}

// MapError reads the *status.Status in err's chain. An OK status, or an
// error with no status, is not the mapper's.
func (m *mapper) MapError(err error) (classify.Outcome, bool) {
	st, ok := status.FromError(err)
	if !ok || st == nil || st.Code() == codes.OK {
		return classify.Outcome{}, false
	}
	o := classify.Outcome{
		Vendor:     Vendor,
		VendorCode: canonicalName(st.Code()),
		Message:    st.Message(),
	}
	switch st.Code() {
	case codes.Unavailable:
		// A dial the client could not make sent nothing: any call may be
		// retried. grpc-go reports it only as status text.
		o.UnknownOutcome = !dialRefused(st.Message())
	case codes.DeadlineExceeded:
		o.UnknownOutcome = true
	}
	domain, reason := readDetails(st, &o)
	m.byDomain(st, &o, domain, reason)
	return o, true
}

// dialRefused reports whether a status message is grpc-go's report of a
// connection the dial could not open.
func dialRefused(msg string) bool {
	return strings.Contains(msg, "connect: connection refused") ||
		strings.Contains(msg, `transport: Error while dialing`)
}

// canonicalName is the google.rpc.Code name of c ("UNAVAILABLE").
func canonicalName(c codes.Code) string {
	switch c {
	case codes.Canceled:
		return "CANCELLED"
	case codes.InvalidArgument:
		return "INVALID_ARGUMENT"
	case codes.DeadlineExceeded:
		return "DEADLINE_EXCEEDED"
	case codes.NotFound:
		return "NOT_FOUND"
	case codes.AlreadyExists:
		return "ALREADY_EXISTS"
	case codes.PermissionDenied:
		return "PERMISSION_DENIED"
	case codes.ResourceExhausted:
		return "RESOURCE_EXHAUSTED"
	case codes.FailedPrecondition:
		return "FAILED_PRECONDITION"
	case codes.Aborted:
		return "ABORTED"
	case codes.OutOfRange:
		return "OUT_OF_RANGE"
	case codes.Unimplemented:
		return "UNIMPLEMENTED"
	case codes.Internal:
		return "INTERNAL"
	case codes.Unavailable:
		return "UNAVAILABLE"
	case codes.DataLoss:
		return "DATA_LOSS"
	case codes.Unauthenticated:
		return "UNAUTHENTICATED"
	}
	return "UNKNOWN"
}

// readDetails adds what the status's google.rpc details say to o, and
// returns the first ErrorInfo's domain and reason.
func readDetails(st *status.Status, o *classify.Outcome) (domain, reason string) {
	details := map[string]any{}
	put := func(k string, v string) {
		if v != "" && len(details) < maxDetailValues {
			details[k] = v
		}
	}
	for _, d := range st.Details() {
		switch d := d.(type) {
		case *errdetails.RetryInfo:
			if rd := d.GetRetryDelay(); rd != nil && rd.IsValid() {
				o.Delay = max(rd.AsDuration(), time.Duration(0))
			}
		case *errdetails.ErrorInfo:
			if reason == "" {
				domain, reason = d.GetDomain(), d.GetReason()
			}
			put("reason", d.GetReason())
			put("domain", d.GetDomain())
			for k, v := range d.GetMetadata() {
				put("metadata."+k, v)
			}
		case *errdetails.BadRequest:
			for i, fv := range d.GetFieldViolations() {
				if i == 0 {
					o.Field = fv.GetField()
				}
				if i < toolerr.MaxViolations {
					o.Violations = append(o.Violations, toolerr.Violation{
						Field: classify.FieldPointer(fv.GetField()), Reason: fv.GetDescription()})
				}
			}
		case *errdetails.QuotaFailure:
			if st.Code() == codes.ResourceExhausted {
				o.VendorCode = quotaCode
			}
			for _, v := range d.GetViolations() {
				put("quota."+v.GetSubject(), v.GetDescription())
			}
		case *errdetails.PreconditionFailure:
			for _, v := range d.GetViolations() {
				put("precondition."+v.GetType()+"."+v.GetSubject(), v.GetDescription())
			}
		case *errdetails.ResourceInfo:
			put("resource_type", d.GetResourceType())
			put("resource_name", d.GetResourceName())
		case *errdetails.Help:
			for _, l := range d.GetLinks() {
				if strings.HasPrefix(l.GetUrl(), "https://") {
					put("doc_url", l.GetUrl())
					break
				}
			}
		case *errdetails.LocalizedMessage:
			if m := d.GetMessage(); m != "" {
				o.Message = m
			}
		}
	}
	if len(details) > 0 {
		o.Details = details
	}
	return domain, reason
}
