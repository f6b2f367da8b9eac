// Package pgserver starts throwaway PostgreSQL servers for tests.
//
// [Start] runs initdb and postgres from the local installation on a free
// loopback port, without durability (fsync=off), and stops the server and
// removes its files when the test ends. As root it runs them as the
// postgres user, since postgres refuses to run as root. When PostgreSQL is
// not installed the test is skipped, except when the environment variable
// CI is "true": then it fails, so that CI never skips silently.
//
// The package has no driver dependency: it checks readiness with the
// pg_isready binary of the same installation, so that the core module
// does not require a Postgres driver.
package pgserver

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"syscall"
	"testing"
	"time"
)

const (
	// MaxConnections is the server's max_connections: room for a few
	// pools of the size tests use.
	MaxConnections = 100
	// startAttempts is how many ports Start tries: another process may
	// take the free port between picking it and the server binding it.
	startAttempts = 3
	// readyTimeout bounds how long Start waits for the server to accept
	// connections.
	readyTimeout = 30 * time.Second
	// stopTimeout bounds how long the cleanup waits for a fast shutdown
	// before it kills the server.
	stopTimeout = 10 * time.Second
)

// Bin returns the directory of initdb, postgres and pg_isready: PATH
// first, else the newest major version under /usr/lib/postgresql (Debian
// keeps them off PATH). ok is false when PostgreSQL is not installed.
func Bin() (dir string, ok bool) {
	if p, err := exec.LookPath("initdb"); err == nil {
		if real, err := filepath.EvalSymlinks(p); err == nil {
			p = real // a link on PATH to the installation's bin
		}
		return filepath.Dir(p), true
	}
	found, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(found) == 0 {
		return "", false
	}
	sort.Slice(found, func(i, j int) bool { return majorOf(found[i]) < majorOf(found[j]) })
	return filepath.Dir(found[len(found)-1]), true
}

// majorOf returns the major version in /usr/lib/postgresql/<major>/bin/initdb,
// or 0.
func majorOf(initdb string) int {
	n, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(initdb))))
	return n
}

// Start starts a PostgreSQL server on 127.0.0.1 and returns its connection
// string (user postgres, database postgres, trust authentication, no TLS).
// The server is stopped and its files removed when the test ends. Start is
// safe to call from parallel tests: each call gets its own server.
//
// Start skips the test when PostgreSQL is not installed (Debian package
// postgresql), unless the environment variable CI is "true", in which
// case it fails the test.
func Start(t testing.TB) (dsn string) {
	t.Helper()
	bin, ok := Bin()
	if !ok {
		if os.Getenv("CI") == "true" {
			t.Fatal("pgserver: postgres is not installed (Debian package postgresql), and CI=true forbids skipping")
		}
		t.Skip("pgserver: postgres is not installed (Debian package postgresql)")
	}
	dir, err := os.MkdirTemp("", "toolerr-pg-")
	if err != nil {
		t.Fatalf("pgserver: %v", err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	r, err := newRunner(bin, dir)
	if err != nil {
		t.Fatalf("pgserver: %v", err)
	}
	data := filepath.Join(dir, "data")
	if out, err := r.command("initdb", "-D", data, "-A", "trust", "-U", "postgres", "-E", "UTF8", "--no-sync").CombinedOutput(); err != nil {
		t.Fatalf("pgserver: initdb: %v\n%s", err, out)
	}
	var errs []error
	for range startAttempts {
		port, stop, err := r.serve(data, dir)
		if err == nil {
			t.Cleanup(stop)
			return fmt.Sprintf("postgres://postgres@127.0.0.1:%d/postgres?sslmode=disable", port)
		}
		errs = append(errs, err)
	}
	t.Fatalf("pgserver: could not start postgres: %v", errors.Join(errs...))
	return ""
}

// runner runs the installation's binaries, as the postgres user when the
// process is root.
type runner struct {
	bin  string
	cred *syscall.Credential
}

// newRunner returns a runner for bin, and gives dir to the postgres user
// when running as root.
func newRunner(bin, dir string) (runner, error) {
	r := runner{bin: bin}
	if os.Geteuid() != 0 {
		return r, nil
	}
	u, err := user.Lookup("postgres")
	if err != nil {
		return r, fmt.Errorf("running as root needs the postgres user: %w", err)
	}
	uid, err := strconv.Atoi(u.Uid)
	if err != nil {
		return r, fmt.Errorf("postgres uid %q: %w", u.Uid, err)
	}
	gid, err := strconv.Atoi(u.Gid)
	if err != nil {
		return r, fmt.Errorf("postgres gid %q: %w", u.Gid, err)
	}
	if err := os.Chown(dir, uid, gid); err != nil {
		return r, err
	}
	r.cred = &syscall.Credential{Uid: uint32(uid), Gid: uint32(gid)}
	return r, nil
}

// command returns the command running the binary name of the installation.
func (r runner) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(filepath.Join(r.bin, name), args...)
	cmd.SysProcAttr = &syscall.SysProcAttr{Credential: r.cred}
	cmd.Env = append(os.Environ(), "LC_ALL=C")
	return cmd
}

// serve starts postgres on the cluster in data, on a free port, with its
// socket in sockDir, and waits until it accepts connections. stop shuts it
// down and waits for it to exit.
func (r runner) serve(data, sockDir string) (port int, stop func(), err error) {
	port, err = freePort()
	if err != nil {
		return 0, nil, err
	}
	srv := r.command("postgres", "-D", data, "-p", strconv.Itoa(port), "-k", sockDir,
		"-c", "listen_addresses=127.0.0.1", "-c", "fsync=off",
		"-c", "max_connections="+strconv.Itoa(MaxConnections))
	if err := srv.Start(); err != nil {
		return 0, nil, err
	}
	exited := make(chan struct{})
	go func() { _ = srv.Wait(); close(exited) }()
	stop = func() {
		select {
		case <-exited:
			return
		default:
		}
		_ = srv.Process.Signal(syscall.SIGINT) // fast shutdown
		select {
		case <-exited:
		case <-time.After(stopTimeout):
			_ = srv.Process.Kill()
			<-exited
		}
	}
	if err := r.waitReady(port, exited); err != nil {
		stop()
		return 0, nil, err
	}
	return port, stop, nil
}

// waitReady polls the server on port until it accepts connections, the
// server exits, or readyTimeout passes.
func (r runner) waitReady(port int, exited <-chan struct{}) error {
	deadline := time.Now().Add(readyTimeout)
	for {
		err := r.ready(port)
		if err == nil {
			return nil
		}
		select {
		case <-exited:
			return fmt.Errorf("postgres on port %d exited before accepting connections", port)
		default:
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("postgres on port %d not ready after %v: %w", port, readyTimeout, err)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

// ready checks once whether the server on port accepts connections: with
// pg_isready when the installation has it, else with a TCP dial (which
// may succeed while the server is still starting up).
func (r runner) ready(port int) error {
	isready := filepath.Join(r.bin, "pg_isready")
	if _, err := os.Stat(isready); err != nil {
		conn, err := net.DialTimeout("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port)), time.Second)
		if err != nil {
			return err
		}
		return conn.Close()
	}
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Second)
	defer cancel()
	out, err := exec.CommandContext(ctx, isready, "-h", "127.0.0.1", "-p", strconv.Itoa(port),
		"-U", "postgres", "-d", "postgres", "-t", "1").CombinedOutput()
	if err != nil {
		return fmt.Errorf("pg_isready: %w: %s", err, out)
	}
	return nil
}

// freePort returns a loopback TCP port that was free a moment ago.
func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer func() { _ = ln.Close() }()
	return ln.Addr().(*net.TCPAddr).Port, nil
}
