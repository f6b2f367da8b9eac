package classify

import (
	"errors"
	"fmt"
	"reflect"
	"strings"
)

// VendorAWS is the vendor name of errors of the AWS SDK for Go v2 (and
// other smithy-generated clients): upstream.vendor of their errors, and
// the name under which package translate registers the AWS code table.
const VendorAWS = "aws"

// smithyAPIError is smithy-go's APIError as far as it can be matched
// without importing it: ErrorFault returns smithy's own type, so it is
// read by reflection (see smithyFault), and only when no HTTP status
// says as much.
type smithyAPIError interface {
	error
	ErrorCode() string
	ErrorMessage() string
}

// httpStatus is awshttp.ResponseError's and smithyhttp.ResponseError's
// view of the HTTP response behind an SDK error.
type httpStatus interface {
	error
	HTTPStatusCode() int
}

// serviceRequestID is awshttp.ResponseError's request id.
type serviceRequestID interface {
	error
	ServiceRequestID() string
}

// SmithyMapper returns the mapper of the AWS SDK for Go v2's errors (any
// smithy-generated client's): the API error's code, stripped of a
// namespace ("com.amazonaws.dynamodb.v20120810#") or a ":http://…"
// suffix, and its message; the HTTP status and request id of the response
// behind it; and, for an error with no error status (an event stream's),
// its fault, "client" or "server", as details.fault. The code is read through the AWS code table that package
// translate registers (the middleware's classifier has it; a classifier of
// your own gets it from translate.NewSet), else the status decides: AWS
// answers throttles with 400, so the table matters. No SDK is imported:
// the mapper matches the methods. Every classifier tries it.
func SmithyMapper() ErrorMapper {
	return MapperFunc(func(err error) (Outcome, bool) {
		api, ok := errors.AsType[smithyAPIError](err)
		if !ok {
			return Outcome{}, false
		}
		o := Outcome{Vendor: VendorAWS, VendorCode: bareAWSCode(api.ErrorCode()), Message: api.ErrorMessage()}
		if hs, ok := errors.AsType[httpStatus](err); ok {
			o.Status = hs.HTTPStatusCode()
		}
		if rid, ok := errors.AsType[serviceRequestID](err); ok {
			o.RequestID = rid.ServiceRequestID()
		}
		if o.Status < 400 {
			// No error status (an event stream's error, or no response):
			// whose fault it is, client or server, is all the SDK says.
			if f := smithyFault(api); f == "client" || f == "server" {
				o.Details = map[string]any{"fault": f}
			}
		}
		return o, true
	})
}

// smithyFault returns the name of the fault an API error reports through
// its ErrorFault method ("client", "server", "unknown"), or "" when it has
// none. smithy.ErrorFault is a named type with a String method; matching it
// by reflection keeps smithy-go out of this module.
func smithyFault(api smithyAPIError) string {
	m := reflect.ValueOf(api).MethodByName("ErrorFault")
	if !m.IsValid() || m.Type().NumIn() != 0 || m.Type().NumOut() != 1 {
		return ""
	}
	if s, ok := m.Call(nil)[0].Interface().(fmt.Stringer); ok {
		return s.String()
	}
	return ""
}

// bareAWSCode strips a ":…" suffix and then a namespace prefix from an AWS
// error code, in that order, as the AWS SDKs sanitize __type and
// X-Amzn-ErrorType (package translate does the same for responses).
func bareAWSCode(code string) string {
	if i := strings.IndexByte(code, ':'); i >= 0 {
		code = code[:i]
	}
	if i := strings.IndexByte(code, '#'); i >= 0 {
		code = code[i+1:]
	}
	return code
}
