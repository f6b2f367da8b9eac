package pgxtest

import (
	"context"
	"net"
	"testing"

	"github.com/jackc/pgx/v5"

	"github.com/toolerr/toolerr/internal/pgserver"
)

// startPostgres starts a throwaway server (internal/pgserver) and returns
// its connection string.
func startPostgres(t *testing.T) string {
	t.Helper()
	return pgserver.Start(t)
}

// connect opens a pgx connection to dsn, closed when the test ends.
func connect(t *testing.T, dsn string) *pgx.Conn {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), dsn)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = conn.Close(context.Background()) })
	return conn
}

// refusedAddr returns a loopback address nothing listens on.
func refusedAddr(t *testing.T) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := ln.Addr().String()
	_ = ln.Close()
	return addr
}
