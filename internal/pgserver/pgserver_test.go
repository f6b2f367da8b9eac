package pgserver_test

import (
	"net"
	"net/url"
	"testing"
	"time"

	"github.com/toolerr/toolerr/internal/pgserver"
)

// TestStart: the server accepts TCP connections at the address of the
// connection string Start returns.
func TestStart(t *testing.T) {
	dsn := pgserver.Start(t)
	u, err := url.Parse(dsn)
	if err != nil {
		t.Fatalf("dsn %q: %v", dsn, err)
	}
	if u.Hostname() != "127.0.0.1" || u.User.Username() != "postgres" {
		t.Fatalf("dsn %q: want postgres@127.0.0.1", dsn)
	}
	conn, err := net.DialTimeout("tcp", u.Host, time.Second)
	if err != nil {
		t.Fatalf("dial %s: %v", u.Host, err)
	}
	_ = conn.Close()
}
