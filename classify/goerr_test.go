package classify

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolerr/toolerr"
)

// refusedDialError dials a loopback port that was just closed.
func refusedDialError(t *testing.T) error {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	require.NoError(t, err)
	addr := ln.Addr().String()
	require.NoError(t, ln.Close())
	_, err = http.Get("http://" + addr + "/")
	require.Error(t, err)
	return err
}

// untrustedTLSError calls a TLS server whose certificate the client does not trust.
func untrustedTLSError(t *testing.T) error {
	srv := httptest.NewTLSServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	defer srv.Close()
	_, err := http.Get(srv.URL)
	require.Error(t, err)
	return err
}

// clientTimeoutError calls a server that never answers with a short client timeout.
func clientTimeoutError(t *testing.T) error {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(http.ResponseWriter, *http.Request) { <-release }))
	defer srv.Close()
	defer close(release)
	client := &http.Client{Timeout: 20 * time.Millisecond}
	_, err := client.Get(srv.URL)
	require.Error(t, err)
	return err
}

// pipeDeadlineError reads past a deadline on an in-memory connection.
func pipeDeadlineError(t *testing.T) error {
	a, b := net.Pipe()
	defer a.Close()
	defer b.Close()
	require.NoError(t, a.SetReadDeadline(time.Now().Add(-time.Second)))
	_, err := a.Read(make([]byte, 1))
	require.ErrorIs(t, err, os.ErrDeadlineExceeded)
	return err
}

func syscallError(op string, errno syscall.Errno) error {
	return &url.Error{Op: "Post", URL: "https://api.example.com/v1/x?token=secret", Err: &net.OpError{
		Op: op, Net: "tcp", Err: os.NewSyscallError(op, errno)}}
}

func TestGoErrors(t *testing.T) {
	tests := []struct {
		name             string
		err              error
		code             string
		getRetry, postRt bool
	}{
		{"context canceled", context.Canceled, toolerr.CodeCancelled, false, false},
		{"wrapped canceled", fmt.Errorf("call: %w", context.Canceled), toolerr.CodeCancelled, false, false},
		{"deadline exceeded", context.DeadlineExceeded, toolerr.CodeUpstreamTimeout, true, false},
		{"net.Error timeout", pipeDeadlineError(t), toolerr.CodeUpstreamTimeout, true, false},
		{"http client timeout (url.Error)", clientTimeoutError(t), toolerr.CodeUpstreamTimeout, true, false},
		{"connection refused (real dial)", refusedDialError(t), toolerr.CodeUpstreamUnavailable, true, true},
		{"ECONNRESET", syscallError("read", syscall.ECONNRESET), toolerr.CodeUpstreamUnavailable, true, false},
		{"EPIPE", syscallError("write", syscall.EPIPE), toolerr.CodeUpstreamUnavailable, true, false},
		{"unexpected EOF in url.Error", &url.Error{Op: "Get", URL: "https://x", Err: io.ErrUnexpectedEOF}, toolerr.CodeUpstreamUnavailable, true, false},
		{"EOF", fmt.Errorf("read response: %w", io.EOF), toolerr.CodeUpstreamUnavailable, true, false},
		{"DNS not found", &url.Error{Op: "Get", URL: "https://x", Err: &net.OpError{Op: "dial", Err: &net.DNSError{Err: "no such host", Name: "api.nowhere.invalid", IsNotFound: true}}}, toolerr.CodeUpstreamMisconfigured, false, false},
		{"DNS temporary", &net.DNSError{Err: "server misbehaving", Name: "api.example.com", IsTemporary: true}, toolerr.CodeUpstreamUnavailable, true, true},
		{"DNS timeout", &net.DNSError{Err: "i/o timeout", Name: "api.example.com", IsTimeout: true}, toolerr.CodeUpstreamUnavailable, true, true},
		{"TLS untrusted (real handshake)", untrustedTLSError(t), toolerr.CodeUpstreamMisconfigured, false, false},
		{"x509 hostname", x509.HostnameError{Host: "api.example.com", Certificate: &x509.Certificate{}}, toolerr.CodeUpstreamMisconfigured, false, false},
		{"x509 unknown authority", fmt.Errorf("tls: %w", x509.UnknownAuthorityError{}), toolerr.CodeUpstreamMisconfigured, false, false},
		{"x509 expired", x509.CertificateInvalidError{Reason: x509.Expired}, toolerr.CodeUpstreamMisconfigured, false, false},
		{"TLS to plain HTTP", tls.RecordHeaderError{Msg: "first record does not look like a TLS handshake"}, toolerr.CodeUpstreamMisconfigured, false, false},
	}
	c := New(nil)
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			get := c.Decide(Outcome{Method: http.MethodGet, Err: tc.err})
			assert.Equal(t, tc.code, get.Code, "error: %v", tc.err)
			assert.Equal(t, RuleGoError, get.Rule)
			assert.Equal(t, tc.getRetry, get.Retryable, "GET")
			post := c.Decide(Outcome{Method: http.MethodPost, Err: tc.err})
			assert.Equal(t, tc.postRt, post.Retryable, "POST without key")

			e := c.Classify(context.Background(), Outcome{Method: http.MethodGet, Err: tc.err})
			assert.ErrorIs(t, e, tc.err, "the Go error is kept as the cause")
			body := string(e.WithRequestID("r").AppendJSON(nil))
			assert.NotContains(t, body, "secret", "the cause's text is never rendered")
			assert.NotContains(t, body, tc.err.Error())
		})
	}
}

func TestGoErrorUnknown(t *testing.T) {
	c := New(nil)
	d := c.Decide(Outcome{Err: errors.New("json: cannot unmarshal")})
	assert.Equal(t, toolerr.CodeUpstreamUnclassified, d.Code)
	assert.Equal(t, RuleFallback, d.Rule)
	assert.False(t, d.Retryable)

	_, ok := c.GoError(context.Background(), errors.New("boom"), http.MethodGet, false)
	assert.False(t, ok, "an unknown Go error is left to the caller")
	e, ok := c.GoError(context.Background(), context.Canceled, http.MethodGet, false)
	require.True(t, ok)
	assert.Equal(t, toolerr.CodeCancelled, e.Code)
	own := toolerr.Default().New(toolerr.CodeNotFound, "no such order")
	e, ok = c.GoError(context.Background(), fmt.Errorf("lookup: %w", own), http.MethodGet, false)
	require.True(t, ok)
	assert.Same(t, own, e, "an *Error in the chain is used as is")
	_, ok = c.GoError(context.Background(), nil, http.MethodGet, false)
	assert.False(t, ok)
}

func TestStatusBeatsGoError(t *testing.T) {
	// A response arrived and then reading its body failed: the status decides.
	d := New(nil).Decide(Outcome{Status: 404, Err: io.ErrUnexpectedEOF})
	assert.Equal(t, toolerr.CodeNotFound, d.Code)
	assert.Equal(t, RuleStatus, d.Rule)
}

// serverClosedIdleError returns the error net/http's Transport gives when
// the server closes each connection as soon as it accepts it: an EOF, a
// reset, or its unexported "server closed idle connection", whichever the
// race between the client's write and read ends with. It tries until it
// gets the last one.
func serverClosedIdleError(t *testing.T) error {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			_ = c.Close()
		}
	}()
	tr := &http.Transport{}
	defer tr.CloseIdleConnections()
	for range 5000 {
		req, _ := http.NewRequest(http.MethodGet, "http://"+ln.Addr().String()+"/", nil)
		_, err := tr.RoundTrip(req)
		if err != nil && strings.Contains(err.Error(), "server closed idle connection") {
			return err
		}
	}
	t.Fatal("net/http never reported a closed idle connection in 5000 tries")
	return nil
}

func TestServerClosedIdleIsAnEOF(t *testing.T) {
	err := serverClosedIdleError(t)
	e, ok := New(nil).GoError(context.Background(), &url.Error{Op: "Get", URL: "http://x", Err: err}, http.MethodGet, false)
	if !ok || e.Code != toolerr.CodeUpstreamUnavailable || !e.Retryable {
		t.Fatalf("got %v %v, want a retryable UPSTREAM_UNAVAILABLE", e, ok)
	}
	e, _ = New(nil).GoError(context.Background(), err, http.MethodPost, false)
	if e.Retryable {
		t.Fatal("a POST may have reached the server: not retryable")
	}
}
