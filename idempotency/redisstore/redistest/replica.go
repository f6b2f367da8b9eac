package redistest

import (
	"bufio"
	"fmt"
	"net"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"
)

// StartReplica starts a redis-server on 127.0.0.1 that replicates the
// server at primary ("host:port"), waits until its link to the primary is
// up, its first sync done and the primary has its acknowledgement of a
// write (so that WAIT counts it at once), and returns its address and its process, so
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
	_, myPort, _ := net.SplitHostPort(addr)
	awaitPoll(t, primary, "replication", "replica on port "+myPort+" online", func(info string) bool {
		for line := range strings.Lines(info) {
			if strings.HasPrefix(line, "slave") && strings.Contains(line, ",port="+myPort+",state=online,") {
				return true
			}
		}
		return false
	})
	if err := awaitAcks(primary, addr); err != nil {
		t.Fatalf("redistest: replica %s of %s: %v", addr, primary, err)
	}
	return addr, proc
}

// awaitAcks writes on primary and waits (WAIT, on the same connection)
// until all its replicas acknowledged the write: a replica counted online
// may not have sent its first acknowledgement yet, and WAIT would then
// wait up to a second for its periodic one. The key written, named after
// the replica, is deleted at once.
func awaitAcks(primary, replica string) error {
	info, err := Info(primary, "replication")
	if err != nil {
		return err
	}
	replicas := 0
	for line := range strings.Lines(info) {
		if strings.HasPrefix(line, "slave") && strings.Contains(line, ",state=online,") {
			replicas++
		}
	}
	conn, err := net.DialTimeout("tcp", primary, time.Second)
	if err != nil {
		return err
	}
	defer func() { _ = conn.Close() }()
	if err := conn.SetDeadline(time.Now().Add(readyTimeout)); err != nil {
		return err
	}
	key := "redistest:replica:" + replica
	cmds := [][]string{{"SET", key, "1"}, {"DEL", key}, {"WAIT", strconv.Itoa(replicas), strconv.Itoa(int(readyTimeout / time.Millisecond))}}
	var req strings.Builder
	for _, c := range cmds {
		fmt.Fprintf(&req, "*%d\r\n", len(c))
		for _, a := range c {
			fmt.Fprintf(&req, "$%d\r\n%s\r\n", len(a), a)
		}
	}
	if _, err := conn.Write([]byte(req.String())); err != nil {
		return err
	}
	r := bufio.NewReader(conn)
	var last string
	for range cmds {
		if last, err = r.ReadString('\n'); err != nil {
			return err
		}
	}
	if want := ":" + strconv.Itoa(replicas) + "\r\n"; last != want {
		return fmt.Errorf("WAIT %d answered %q", replicas, strings.TrimSpace(last))
	}
	return nil
}

// StartArgs is [Start] with extra redis-server arguments (such as
// "--cluster-enabled", "yes"), and returns the server's process too. The
// server runs in a directory of its own, so relative file names (a
// cluster's nodes.conf) do not collide.
func StartArgs(t testing.TB, args ...string) (addr string, proc *os.Process) {
	t.Helper()
	addr, proc, _ = startAttempting(t, lookPath(t), args...)
	return addr, proc
}

// AwaitInfo polls INFO section of the server at addr until it has the
// line want ("field:value", such as "role:master" or
// "connected_slaves:0"), and fails the test when it does not within 10
// seconds.
func AwaitInfo(t testing.TB, addr, section, want string) {
	t.Helper()
	awaitPoll(t, addr, section, "line "+strconv.Quote(want), func(info string) bool { return hasLine(info, want) })
}

// awaitPoll polls INFO section of the server at addr until ok accepts it,
// and fails the test when it does not within 10 seconds.
func awaitPoll(t testing.TB, addr, section, what string, ok func(info string) bool) {
	t.Helper()
	deadline := time.Now().Add(readyTimeout)
	var (
		last string
		err  error
	)
	for time.Now().Before(deadline) {
		last, err = Info(addr, section)
		if err == nil && ok(last) {
			return
		}
		time.Sleep(10 * time.Millisecond)
	}
	t.Fatalf("redistest: %s: INFO %s has no %s within %v (error %v): %s", addr, section, what, readyTimeout, err, strings.TrimSpace(last))
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
