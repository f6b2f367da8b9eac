package classify

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"net"
	"net/http"
	"net/url"
	"syscall"

	"github.com/toolerr/toolerr"
)

// LocalCode returns the code of a failure the service produced itself with
// the given HTTP status, as the middleware reads a response it captured with
// no evidence of a downstream. Most rows are the status table's; the rows
// that would blame a downstream read the status as the application meant
// it:
//
//   - 405 is METHOD_NOT_ALLOWED;
//   - 408, 504 and the proxies' timeouts are TOOL_TIMEOUT;
//   - 503, 421 and 425 are TOOL_UNAVAILABLE;
//   - every other 5xx (500, 502, unknown ones, and the misconfiguration
//     rows) is INTERNAL_ERROR, except 501 NOT_IMPLEMENTED and the quota
//     rows 507 and 509;
//   - an unknown 4xx, which RFC 9110 reads as 400, is VALIDATION_FAILED.
//
// It returns "" for a status below 400 or above 599.
func LocalCode(status int) string {
	return localRow(status).code
}

// localRow is the status table for a local failure.
func localRow(status int) statusRule {
	switch status {
	case http.StatusMethodNotAllowed:
		return statusRule{code: toolerr.CodeMethodNotAllowed}
	case http.StatusRequestTimeout:
		// The server gave up waiting for the request itself: nothing ran.
		return statusRule{code: toolerr.CodeToolTimeout}
	case http.StatusBadGateway:
		// The service claims a gateway failure it shows no evidence of.
		return statusRule{code: toolerr.CodeInternal}
	}
	row := statusRow(status)
	row.code = localize(row.code, status)
	return row
}

// localize returns the local reading of a code decided for a failure of
// the service itself: no code that blames a downstream survives.
func localize(code string, status int) string {
	switch code {
	case toolerr.CodeUpstreamTimeout:
		return toolerr.CodeToolTimeout
	case toolerr.CodeUpstreamUnavailable:
		if status > http.StatusServiceUnavailable {
			return toolerr.CodeInternal // a CDN's 52x, written by the service itself
		}
		return toolerr.CodeToolUnavailable
	case toolerr.CodeUpstreamUnclassified:
		if status >= 400 && status < 500 {
			return toolerr.CodeValidationFailed
		}
		return toolerr.CodeInternal
	case toolerr.CodeUpstreamMisconfigured:
		return toolerr.CodeInternal
	}
	return code
}

// localGoRow is goErrorRow for an error a handler of the service returned
// with no evidence of an outbound call ([Outbound] false): its own
// deadline is TOOL_TIMEOUT, a cancellation stays CANCELLED, and anything
// the Go-error rules would blame on a downstream (EOF, a reset) is
// INTERNAL_ERROR, with no detail that names a downstream.
func localGoRow(err error) (goErrorRule, bool) {
	g, ok := goErrorRow(err)
	if !ok {
		return g, false
	}
	switch g.code {
	case toolerr.CodeCancelled:
		return goErrorRule{code: toolerr.CodeCancelled, detail: "The call was cancelled before the tool finished."}, true
	case toolerr.CodeUpstreamTimeout:
		return goErrorRule{code: toolerr.CodeToolTimeout, detail: "The tool ran out of time before it finished.", unknownOutcome: true}, true
	}
	return goErrorRule{code: toolerr.CodeInternal}, true
}

// Outbound reports whether err carries evidence of an outbound network
// call: the *url.Error of an http.Client, a *net.OpError or *net.DNSError
// of a dial, read or write, a TLS or certificate error, or any other
// net.Error (a driver's or an SDK's) but context.DeadlineExceeded and a
// bare syscall.Errno, which implement net.Error too. A bare context.DeadlineExceeded or io.EOF says
// nothing of where it came from: a handler's own deadline, or the end of
// its request body.
func Outbound(err error) bool {
	var (
		urlErr      *url.Error
		opErr       *net.OpError
		dnsErr      *net.DNSError
		addrErr     *net.AddrError
		verifyErr   *tls.CertificateVerificationError
		recordErr   tls.RecordHeaderError
		unknownCA   x509.UnknownAuthorityError
		hostnameErr x509.HostnameError
		invalidCert x509.CertificateInvalidError
		netErr      net.Error
	)
	if errors.As(err, &netErr) {
		// context's deadline error and a bare errno implement net.Error
		// too, and say nothing of a network call.
		_, errno := netErr.(syscall.Errno)
		if !errno && !errors.Is(netErr, context.DeadlineExceeded) {
			return true
		}
	}
	return errors.As(err, &urlErr) || errors.As(err, &opErr) || errors.As(err, &dnsErr) ||
		errors.As(err, &addrErr) || errors.As(err, &verifyErr) || errors.As(err, &recordErr) ||
		errors.As(err, &unknownCA) || errors.As(err, &hostnameErr) || errors.As(err, &invalidCert)
}
