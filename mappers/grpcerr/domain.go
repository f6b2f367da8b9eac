package grpcerr

import (
	"encoding/json"
	"net/http"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/toolerr/toolerr/classify"
	"github.com/toolerr/toolerr/translate"
)

// GoogleDomain is the ErrorInfo domain of Google APIs' standard reasons
// (google.api.ErrorReason: "the error domain is googleapis.com").
const GoogleDomain = "googleapis.com"

// googleVendor is the vendor under which package translate reads Google's
// errors; its table holds Google's reasons.
const googleVendor = "google"

// maxGoogleDetails bounds the details turned into Google's JSON form.
const maxGoogleDetails = 16

// domainTable says how the ErrorInfo reasons of one domain are read.
type domainTable struct {
	vendor  string
	reasons map[string]string // reason → toolerr code; nil: Google's rules
}

// Option configures [Mapper].
type Option func(*mapper)

// WithDomain reads the ErrorInfo reasons of domain (a service's own
// reasons, "ledger.example.com") by reasons: reason → toolerr code. A
// status whose ErrorInfo has that domain and a reason the table maps is
// reported as vendor's, its reason as upstream.code and its status code
// as details.grpc_code; the table decides its class, the status still
// decides whether the call may have run. A reason the table lacks leaves
// the status code to decide. The table is registered on the classifier
// as vendor's, so every code in it must be registered in the classifier's
// registry (see classify.Classifier.RegisterVendor). A later WithDomain
// for the same domain replaces an earlier one, Google's included.
func WithDomain(domain, vendor string, reasons map[string]string) Option {
	return func(m *mapper) {
		if domain == "" || vendor == "" || len(reasons) == 0 {
			return
		}
		m.domains[domain] = domainTable{vendor: vendor, reasons: reasons}
	}
}

// byDomain replaces o's vendor and code by its ErrorInfo's domain and
// reason when a domain table knows them.
func (m *mapper) byDomain(st *status.Status, o *classify.Outcome, domain, reason string) {
	dt, ok := m.domains[domain]
	if !ok || reason == "" {
		return
	}
	code := reason
	if dt.reasons == nil {
		code, ok = googleReason(st)
		if _, known := m.google[code]; !ok || !known {
			return
		}
	} else if _, known := dt.reasons[reason]; !known {
		return
	}
	if o.Details == nil {
		o.Details = map[string]any{}
	}
	o.Details["grpc_code"] = canonicalName(st.Code())
	o.Vendor, o.VendorCode = dt.vendor, code
}

// googleReason reads st through translate's Google rules, the rules of
// Google's JSON errors, of which a gRPC status is the wire twin: the
// vendor code they decide (the reason, or the reason marked per-day when
// the quota named is a daily one).
func googleReason(st *status.Status) (string, bool) {
	var env struct {
		Error struct {
			Code    int               `json:"code"`
			Message string            `json:"message,omitempty"`
			Status  string            `json:"status"`
			Details []json.RawMessage `json:"details,omitempty"`
		} `json:"error"`
	}
	env.Error.Code = httpStatus(st.Code())
	env.Error.Status = canonicalName(st.Code())
	for i, d := range st.Proto().GetDetails() {
		if i == maxGoogleDetails {
			break
		}
		if b, err := protojson.Marshal(d); err == nil {
			env.Error.Details = append(env.Error.Details, b)
		}
	}
	body, err := json.Marshal(env)
	if err != nil {
		return "", false
	}
	o, ok := translate.Default().Translate(&translate.Raw{Vendor: googleVendor, Status: env.Error.Code, Body: body})
	if !ok || o.Vendor != googleVendor || o.VendorCode == "" {
		return "", false
	}
	return o.VendorCode, true
}

// httpStatus is the HTTP status Google's APIs send for a gRPC code
// (google.rpc.Code's documented HTTP mapping).
func httpStatus(c codes.Code) int {
	switch c {
	case codes.Canceled:
		return 499
	case codes.InvalidArgument, codes.FailedPrecondition, codes.OutOfRange:
		return http.StatusBadRequest
	case codes.DeadlineExceeded:
		return http.StatusGatewayTimeout
	case codes.NotFound:
		return http.StatusNotFound
	case codes.AlreadyExists, codes.Aborted:
		return http.StatusConflict
	case codes.PermissionDenied:
		return http.StatusForbidden
	case codes.Unauthenticated:
		return http.StatusUnauthorized
	case codes.ResourceExhausted:
		return http.StatusTooManyRequests
	case codes.Unimplemented:
		return http.StatusNotImplemented
	case codes.Unavailable:
		return http.StatusServiceUnavailable
	}
	return http.StatusInternalServerError
}
