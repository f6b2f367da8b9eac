// Package redistest starts throwaway redis-server processes for tests:
// single servers ([Start]) and replicas of them ([StartReplica]).
//
// [Start] runs a real redis-server on a free loopback port, without
// persistence, and stops it when the test ends. When the redis-server
// binary is not on PATH the test is skipped, except when the environment
// variable CI is "true": then it fails, so that CI never skips silently.
package redistest

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"
)

// Binary is the name of the server executable looked up on PATH.
const Binary = "redis-server"

const (
	// startAttempts is how many ports Start tries: another process may
	// take the free port between picking it and the server binding it.
	startAttempts = 5
	// readyTimeout bounds how long Start waits for the server to answer
	// PING.
	readyTimeout = 10 * time.Second
)

// Start starts a redis-server on 127.0.0.1 and returns its address
// ("127.0.0.1:port") and a function that stops it. stop kills the server
// (for tests of a store whose server goes away) and waits for it to exit;
// it may be called any number of times, and is also called when the test
// ends. Start is safe to call from parallel tests: each gets its own server.
//
// Start skips the test when redis-server is not installed, unless the
// environment variable CI is "true", in which case it fails the test.
func Start(t testing.TB) (addr string, stop func()) {
	t.Helper()
	bin := lookPath(t)
	addr, _, stop = startAttempting(t, bin)
	return addr, stop
}

// lookPath finds the server binary, skipping or failing the test (under
// CI=true) when it is not installed.
func lookPath(t testing.TB) string {
	t.Helper()
	bin, err := exec.LookPath(Binary)
	if err != nil {
		if os.Getenv("CI") == "true" {
			t.Fatalf("redistest: %s not found on PATH, and CI=true forbids skipping: %v", Binary, err)
		}
		t.Skipf("redistest: %s not found on PATH: %v", Binary, err)
	}
	return bin
}

// startAttempting starts a server with extra arguments, trying several
// free ports, and stops it when the test ends; it fails the test when no
// attempt succeeds.
func startAttempting(t testing.TB, bin string, extra ...string) (string, *os.Process, func()) {
	t.Helper()
	var errs []error
	for range startAttempts {
		addr, proc, stop, err := start(t, bin, extra...)
		if err == nil {
			t.Cleanup(stop)
			return addr, proc, stop
		}
		errs = append(errs, err)
	}
	t.Fatalf("redistest: could not start %s: %v", bin, errors.Join(errs...))
	return "", nil, nil
}

// start runs one server on a free port, with extra arguments, and waits
// until it answers. A primary feeds a new replica at once (no diskless
// sync delay), so that a replica starts in well under a second.
func start(t testing.TB, bin string, extra ...string) (string, *os.Process, func(), error) {
	port, err := freePort()
	if err != nil {
		return "", nil, nil, err
	}
	addr := net.JoinHostPort("127.0.0.1", strconv.Itoa(port))
	cmd := exec.Command(bin,
		"--port", strconv.Itoa(port),
		"--bind", "127.0.0.1",
		"--save", "",
		"--appendonly", "no",
		"--dir", t.TempDir(),
		"--loglevel", "warning",
		"--repl-diskless-sync-delay", "0",
	)
	cmd.Args = append(cmd.Args, extra...)
	var out syncBuffer
	cmd.Stdout = &out
	cmd.Stderr = &out
	if err := cmd.Start(); err != nil {
		return "", nil, nil, fmt.Errorf("start %s: %w", bin, err)
	}
	exited := make(chan struct{})
	go func() {
		_ = cmd.Wait()
		close(exited)
	}()
	var once sync.Once
	stop := func() {
		once.Do(func() {
			_ = cmd.Process.Kill()
			<-exited
		})
	}
	if err := waitReady(addr, cmd.Process.Pid, exited); err != nil {
		stop()
		return "", nil, nil, fmt.Errorf("%s on %s: %w; output: %s", bin, addr, err, strings.TrimSpace(out.String()))
	}
	return addr, cmd.Process, stop, nil
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("pick a free port: %w", err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	if err := l.Close(); err != nil {
		return 0, fmt.Errorf("pick a free port: %w", err)
	}
	return port, nil
}

// waitReady polls addr until the server of process pid answers, the
// server exits, or readyTimeout passes. Checking the pid matters: when
// another process took the port first, its server answers, ours exits.
func waitReady(addr string, pid int, exited <-chan struct{}) error {
	deadline := time.Now().Add(readyTimeout)
	var last error
	for time.Now().Before(deadline) {
		select {
		case <-exited:
			return errors.New("the server exited")
		default:
		}
		if last = ping(addr, pid); last == nil {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return fmt.Errorf("no PONG within %v: %w", readyTimeout, last)
}

// ping asks the server at addr for INFO server and checks that it runs
// as process pid (any pid when pid is 0).
func ping(addr string, pid int) error {
	info, err := Info(addr, "server")
	if err != nil {
		return err
	}
	if pid != 0 && !strings.Contains(info, "\nprocess_id:"+strconv.Itoa(pid)+"\r\n") {
		return fmt.Errorf("%s is another server than process %d", addr, pid)
	}
	return nil
}

// Info returns the text of INFO section from the server at addr, on a
// connection of its own that it closes; it gives up after a second.
func Info(addr, section string) (string, error) {
	conn, err := net.DialTimeout("tcp", addr, time.Second)
	if err != nil {
		return "", err
	}
	defer func() { _ = conn.Close() }()
	if err := conn.SetDeadline(time.Now().Add(time.Second)); err != nil {
		return "", err
	}
	req := fmt.Sprintf("*2\r\n$4\r\nINFO\r\n$%d\r\n%s\r\n", len(section), section)
	if _, err := conn.Write([]byte(req)); err != nil {
		return "", err
	}
	r := bufio.NewReader(conn)
	head, err := r.ReadString('\n')
	if err != nil {
		return "", err
	}
	n, err := strconv.Atoi(strings.TrimSpace(strings.TrimPrefix(head, "$")))
	if !strings.HasPrefix(head, "$") || err != nil || n < 0 {
		return "", fmt.Errorf("INFO answered %q", strings.TrimSpace(head))
	}
	info := make([]byte, n)
	if _, err := io.ReadFull(r, info); err != nil {
		return "", err
	}
	return string(info), nil
}

// syncBuffer is a bytes.Buffer safe for the concurrent writes of a child
// process's stdout and stderr copiers.
type syncBuffer struct {
	mu  sync.Mutex
	buf bytes.Buffer
}

// Write appends p to the buffer.
func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.Write(p)
}

// String returns what was written so far.
func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
