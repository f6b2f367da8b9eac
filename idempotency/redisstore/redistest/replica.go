package redistest

import (
	"fmt"
	"net"
	"os"
	"strings"
	"testing"
	"time"
)

// StartReplica starts a redis-server on 127.0.0.1 that replicates the
// server at primary ("host:port"), waits until its link to the primary is
// up and its first sync done, and returns its address and its process, so
// that a test can stall it (SIGSTOP, SIGCONT) or kill it. The server is
// killed when the test ends (a stopped process too).
//
// Like [Start], it skips the test when redis-server is not installed,
// unless the environment variable CI is "true": then it fails the test.
func StartReplica(t testing.TB, primary string) (addr string, proc *os.Process) {
	t.Helper()
	bin := lookPath(t)
	host, port, err := net.SplitHostPort(primary)
	if err != nil {
		t.Fatalf("redistest: primary address %q: %v", primary, err)
	}
	addr, proc, _ = startAttempting(t, bin, "--replicaof", host, port)
	AwaitInfo(t, addr, "replication", "master_link_status:up")
	AwaitInfo(t, addr, "replication", "master_sync_in_progress:0")
	return addr, proc
}

// AwaitInfo polls INFO section of the server at addr until it has the
// line want ("field:value", such as "role:master" or
// "connected_slaves:0"), and fails the test when it does not within 10
// seconds.
func AwaitInfo(t testing.TB, addr, section, want string) {
	t.Helper()
	deadline := time.Now().Add(readyTimeout)
	var (
		last string
		err  error
	)
	for time.Now().Before(deadline) {
		last, err = Info(addr, section)
		if err == nil && hasLine(last, want) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("redistest: %s: INFO %s has no line %q within %v (error %v): %s", addr, section, want, readyTimeout, err, strings.TrimSpace(last))
}

// InfoField returns the value of field in INFO section of the server at
// addr, or an error when the section has no such field.
func InfoField(addr, section, field string) (string, error) {
	info, err := Info(addr, section)
	if err != nil {
		return "", err
	}
	for line := range strings.Lines(info) {
		if v, ok := strings.CutPrefix(strings.TrimRight(line, "\r\n"), field+":"); ok {
			return v, nil
		}
	}
	return "", fmt.Errorf("INFO %s has no field %q", section, field)
}

// hasLine reports whether info has the line want.
func hasLine(info, want string) bool {
	for line := range strings.Lines(info) {
		if strings.TrimRight(line, "\r\n") == want {
			return true
		}
	}
	return false
}
