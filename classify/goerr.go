package classify

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"io"
	"net"
	"strings"
	"syscall"

	"github.com/toolerr/toolerr"
)

// goErrorRule is what the Go-error rules decide for an error that arrived
// instead of a response.
type goErrorRule struct {
	code   string
	detail string
	// unknownOutcome: the request may have reached the server, so the call is
	// retryable only when idempotent. When false and the code is retryable,
	// nothing was sent and any method may be retried.
	unknownOutcome bool
}

// serverClosedIdle reports whether err is net/http's unexported
// errServerClosedIdle, which its Transport returns when the server closed
// the connection as the request went out, with no response: the same
// failure as an EOF, under a message of its own.
func serverClosedIdle(err error) bool {
	return strings.Contains(err.Error(), "http: server closed idle connection")
}

// goErrorRow classifies a Go error; ok is false when no rule knows it.
// Order matters: the most specific checks come first, because a *url.Error
// or *net.OpError wraps the syscall error and reports Timeout() for it too.
func goErrorRow(err error) (goErrorRule, bool) {
	var (
		dnsErr      *net.DNSError
		verifyErr   *tls.CertificateVerificationError
		unknownCA   x509.UnknownAuthorityError
		hostnameErr x509.HostnameError
		invalidCert x509.CertificateInvalidError
		recordErr   tls.RecordHeaderError
		netErr      net.Error
	)
	switch {
	case errors.Is(err, context.Canceled):
		return goErrorRule{code: toolerr.CodeCancelled, detail: "The call was cancelled before the downstream service answered."}, true
	case errors.As(err, &dnsErr):
		if dnsErr.IsNotFound {
			// The name does not exist: retrying cannot make it resolve.
			return goErrorRule{code: toolerr.CodeUpstreamMisconfigured, detail: "The downstream host name does not resolve."}, true
		}
		// A temporary or timed-out lookup sent nothing: safe for any method.
		return goErrorRule{code: toolerr.CodeUpstreamUnavailable, detail: "The downstream host name could not be resolved right now."}, true
	case errors.As(err, &verifyErr), errors.As(err, &unknownCA), errors.As(err, &hostnameErr),
		errors.As(err, &invalidCert), errors.As(err, &recordErr):
		return goErrorRule{code: toolerr.CodeUpstreamMisconfigured, detail: "The downstream service's TLS certificate or handshake was rejected."}, true
	case errors.Is(err, syscall.ECONNREFUSED):
		// Refused before anything was sent: safe for any method.
		return goErrorRule{code: toolerr.CodeUpstreamUnavailable, detail: "The downstream service refused the connection."}, true
	case errors.Is(err, context.DeadlineExceeded), errors.As(err, &netErr) && netErr.Timeout():
		return goErrorRule{code: toolerr.CodeUpstreamTimeout, detail: "The downstream service did not answer in time.", unknownOutcome: true}, true
	case errors.Is(err, syscall.ECONNRESET), errors.Is(err, syscall.EPIPE), errors.Is(err, syscall.ECONNABORTED):
		return goErrorRule{code: toolerr.CodeUpstreamUnavailable, detail: "The connection to the downstream service was dropped.", unknownOutcome: true}, true
	case errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, io.EOF), serverClosedIdle(err):
		return goErrorRule{code: toolerr.CodeUpstreamUnavailable, detail: "The downstream service closed the connection before answering.", unknownOutcome: true}, true
	}
	return goErrorRule{}, false
}
