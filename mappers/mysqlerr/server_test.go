package mysqlerr_test

import (
	"context"
	"database/sql"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"syscall"
	"testing"
	"time"

	"github.com/go-sql-driver/mysql"
)

// maxConnections is the server's max_connections: small, so that a test
// can take every slot and meet ER_CON_COUNT_ERROR.
const maxConnections = 12

// mariadbBins returns the server and the data directory initializer:
// Debian keeps mariadbd in /usr/sbin, which a user's PATH may lack.
func mariadbBins() (server, installDB string, ok bool) {
	for _, name := range []string{"mariadbd", "/usr/sbin/mariadbd", "mysqld", "/usr/sbin/mysqld"} {
		if p, err := exec.LookPath(name); err == nil {
			server = p
			break
		}
	}
	for _, name := range []string{"mariadb-install-db", "mysql_install_db"} {
		if p, err := exec.LookPath(name); err == nil {
			installDB = p
			break
		}
	}
	return server, installDB, server != "" && installDB != ""
}

// server is a throwaway MariaDB on a free loopback port.
type server struct {
	addr string
	// root is a pool of the root account, on the database "shop".
	root *sql.DB
}

// dsn is the data source name of user with password on database db.
func (s *server) dsn(user, password, db string) string {
	c := mysql.NewConfig()
	c.User, c.Passwd, c.Net, c.Addr, c.DBName = user, password, "tcp", s.addr, db
	c.Timeout = 5 * time.Second
	return c.FormatDSN()
}

// open opens a pool of user on db, closed when the test ends.
func (s *server) open(t *testing.T, user, password, db string) *sql.DB {
	t.Helper()
	d, err := sql.Open("mysql", s.dsn(user, password, db))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = d.Close() })
	return d
}

// startMariaDB starts a throwaway MariaDB (innodb_lock_wait_timeout=1, a
// small max_connections) and creates the database "shop"; the server is
// stopped and its files removed when the test ends. Without a server it
// skips, or fails under CI=true.
func startMariaDB(t *testing.T) *server {
	t.Helper()
	bin, installDB, ok := mariadbBins()
	if !ok {
		if os.Getenv("CI") == "true" {
			t.Fatal("mariadbd is not installed (Debian package mariadb-server); CI requires it")
		}
		t.Skip("mariadbd is not installed (Debian package mariadb-server)")
	}
	began := time.Now()
	dir, err := os.MkdirTemp("", "toolerr-mariadb-")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = os.RemoveAll(dir) })
	data := filepath.Join(dir, "data")
	// Options of the server, at bootstrap and run: a temporary directory
	// of its own, since servers of tests run in parallel (bootstraps
	// sharing /tmp collide on their temporary tables).
	common := []string{"--no-defaults", "--datadir=" + data, "--tmpdir=" + dir}
	if os.Geteuid() == 0 { // mariadbd refuses root unless told
		common = append(common, "--user=root")
	}
	install := exec.Command(installDB, slices.Concat(common, []string{
		"--auth-root-authentication-method=normal", "--skip-test-db", "--skip-name-resolve"})...)
	install.Dir = dir
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", installDB, err, out)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := ln.Addr().(*net.TCPAddr).Port
	_ = ln.Close()
	srv := exec.Command(bin, slices.Concat(common, []string{"--port=" + strconv.Itoa(port), "--bind-address=127.0.0.1",
		"--socket=" + filepath.Join(dir, "sock"), "--pid-file=" + filepath.Join(dir, "pid"),
		"--log-error=" + filepath.Join(dir, "error.log"), "--skip-name-resolve", "--skip-log-bin",
		"--innodb-buffer-pool-size=8M", "--innodb-log-file-size=8M", "--innodb-flush-log-at-trx-commit=0",
		"--innodb-lock-wait-timeout=1", "--max-connections=" + strconv.Itoa(maxConnections)})...)
	srv.Dir = dir
	if err := srv.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = srv.Process.Signal(syscall.SIGTERM)
		done := make(chan struct{})
		go func() { _ = srv.Wait(); close(done) }()
		select {
		case <-done:
		case <-time.After(15 * time.Second):
			_ = srv.Process.Kill()
		}
	})
	s := &server{addr: "127.0.0.1:" + strconv.Itoa(port)}
	boot := s.open(t, "root", "", "")
	deadline := time.Now().Add(30 * time.Second)
	for {
		ctx, cancel := context.WithTimeout(context.Background(), time.Second)
		err := boot.PingContext(ctx)
		cancel()
		if err == nil {
			break
		}
		if time.Now().After(deadline) {
			log, _ := os.ReadFile(filepath.Join(dir, "error.log"))
			t.Fatalf("mariadbd did not start: %v\n%s", err, log)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if _, err := boot.Exec("CREATE DATABASE shop"); err != nil {
		t.Fatal(err)
	}
	s.root = s.open(t, "root", "", "shop")
	t.Logf("MariaDB ready on %s in %v", s.addr, time.Since(began).Round(time.Millisecond))
	return s
}

// exec runs statements on the root pool, failing the test on an error.
func (s *server) exec(t *testing.T, stmts ...string) {
	t.Helper()
	for _, q := range stmts {
		if _, err := s.root.Exec(q); err != nil {
			t.Fatalf("%s: %v", q, err)
		}
	}
}

// waitUntil polls query, a SELECT COUNT(*) on the root pool, until it
// counts a row: a connection reaching a state another session must see.
// It returns an error rather than failing the test, so that tool handlers,
// which run outside the test's goroutine, can call it.
func (s *server) waitUntil(ctx context.Context, query string, args ...any) error {
	deadline := time.Now().Add(10 * time.Second)
	for time.Now().Before(deadline) {
		var n int
		if err := s.root.QueryRowContext(ctx, query, args...).Scan(&n); err != nil {
			return err
		}
		if n > 0 {
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	return fmt.Errorf("never true: %s %v", query, args)
}
