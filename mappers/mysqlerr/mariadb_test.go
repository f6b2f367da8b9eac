package mysqlerr_test

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/mappers/mysqlerr"
	"github.com/toolerr/toolerr/middleware"
)

// schema is the shop the tests write to: a customer's e-mail and API
// token are what a duplicate-key message would quote.
var schema = []string{
	`CREATE TABLE customers (id INT PRIMARY KEY, email VARCHAR(100) NOT NULL,
		api_token VARCHAR(100) NOT NULL, UNIQUE KEY login (email, api_token)) ENGINE=InnoDB`,
	`CREATE TABLE orders (id INT PRIMARY KEY, customer INT NOT NULL, sku VARCHAR(8) NOT NULL,
		qty TINYINT NOT NULL, total INT CHECK (total >= 0),
		FOREIGN KEY (customer) REFERENCES customers (id)) ENGINE=InnoDB`,
	`INSERT INTO customers VALUES (1, 'maria.lopez@example.com', 'sk_live_4eC39HqLyjWDarjtT1zdp7dc'), (2, 'bo@example.com', 'tok2')`,
	`INSERT INTO orders VALUES (1, 1, 'A1', 1, 10), (2, 2, 'B2', 1, 20)`,
}

// answer is what the agent got for one tool call.
type answer struct {
	status int
	body   string
	err    *toolerr.Error
	// raw is the error the handler got from the driver, before wrapping.
	raw error
}

// call serves a tool whose handler runs fn and returns its error wrapped,
// as handlers do, behind the middleware with the mapper, and calls it
// over HTTP with method.
func call(t *testing.T, method string, fn func(ctx context.Context) error) answer {
	t.Helper()
	var raw error
	tool := middleware.Tool("save_order", func(_ http.ResponseWriter, r *http.Request) error {
		raw = fn(r.Context())
		if raw == nil {
			return nil
		}
		return fmt.Errorf("save order: %w", raw)
	})
	mw := middleware.New(middleware.WithErrorMappers(mysqlerr.Mapper()),
		middleware.WithLogger(slog.New(slog.DiscardHandler)))
	srv := httptest.NewServer(mw(tool))
	defer srv.Close()
	req, err := http.NewRequest(method, srv.URL+"/tools/save_order", strings.NewReader("{}"))
	require.NoError(t, err)
	res, err := srv.Client().Do(req)
	require.NoError(t, err)
	defer res.Body.Close()
	body, err := io.ReadAll(res.Body)
	require.NoError(t, err)
	require.Error(t, raw, "the handler's statement was meant to fail")
	e, err := toolerr.Parse(body)
	require.NoError(t, err, "%s", body)
	return answer{status: res.StatusCode, body: string(body), err: e, raw: raw}
}

// number is the server error number in err's chain, 0 without one.
func number(err error) uint16 {
	if me, ok := errors.AsType[*mysql.MySQLError](err); ok {
		return me.Number
	}
	return 0
}

// expect checks what the agent got: the code, its status, retryable,
// and upstream naming MySQL and the number.
func expect(t *testing.T, a answer, code string, retryable bool, upstreamCode string) {
	t.Helper()
	assert.Equal(t, code, a.err.Code, "%v", a.raw)
	def, ok := toolerr.Default().Lookup(code)
	require.True(t, ok)
	assert.Equal(t, def.Status, a.status)
	assert.Equal(t, retryable, a.err.Retryable, "retryable")
	require.NotNil(t, a.err.Upstream, a.body)
	assert.Equal(t, mysqlerr.Vendor, a.err.Upstream.Vendor)
	assert.Equal(t, upstreamCode, a.err.Upstream.Code)
	assert.NotContains(t, a.body, "save order", "the handler's wrapping is not the agent's")
}

// TestErrorsFromARealServer produces each error on a real MariaDB through
// go-sql-driver/mysql and database/sql, in a tool handler, and checks what
// the agent gets through the middleware.
func TestErrorsFromARealServer(t *testing.T) {
	t.Parallel() // each test has a server of its own
	s := startMariaDB(t)
	s.exec(t, schema...)
	db := s.root
	execFn := func(q string, args ...any) func(context.Context) error {
		return func(ctx context.Context) error {
			_, err := db.ExecContext(ctx, q, args...)
			return err
		}
	}
	cases := []struct {
		name, method, stmt string
		args               []any
		number             uint16
		code               string
		retryable          bool
	}{
		{"duplicate key", http.MethodPost, `INSERT INTO customers VALUES (3, ?, ?)`,
			[]any{"bo@example.com", "tok2"}, 1062, toolerr.CodeConflict, false},
		{"no parent row", http.MethodPost, `INSERT INTO orders VALUES (10, ?, 'A1', 1, 5)`,
			[]any{99}, 1452, toolerr.CodePreconditionFailed, false},
		{"row still referenced", http.MethodPost, `DELETE FROM customers WHERE id = ?`,
			[]any{1}, 1451, toolerr.CodePreconditionFailed, false},
		{"not null", http.MethodPost, `INSERT INTO orders VALUES (11, 1, ?, 1, 5)`,
			[]any{nil}, 1048, toolerr.CodeValidationFailed, false},
		{"check constraint", http.MethodPost, `UPDATE orders SET total = ? WHERE id = 1`,
			[]any{-5}, 4025, toolerr.CodeValidationFailed, false},
		{"data too long", http.MethodPost, `INSERT INTO orders VALUES (12, 1, ?, 1, 5)`,
			[]any{"A-VERY-LONG-SKU"}, 1406, toolerr.CodeValidationFailed, false},
		{"out of range", http.MethodPost, `INSERT INTO orders VALUES (13, 1, 'A1', ?, 5)`,
			[]any{300}, 1264, toolerr.CodeValidationFailed, false},
		{"incorrect value", http.MethodPost, `INSERT INTO orders VALUES (14, 1, 'A1', 'many', 5)`,
			nil, 1366, toolerr.CodeValidationFailed, false},
		{"no such table", http.MethodGet, `SELECT * FROM order_lines`,
			nil, 1146, toolerr.CodeInternal, false},
		{"unknown column", http.MethodGet, `SELECT discount FROM orders`,
			nil, 1054, toolerr.CodeInternal, false},
		{"syntax", http.MethodGet, `SELEC * FROM orders`,
			nil, 1064, toolerr.CodeInternal, false},
		// MariaDB's max_statement_time may interrupt a write: retryable
		// only where a retry is harmless.
		{"statement time, GET", http.MethodGet, `SET STATEMENT max_statement_time=0.01 FOR SELECT SLEEP(1)`,
			nil, 1969, toolerr.CodeUpstreamTimeout, true},
		{"statement time, POST", http.MethodPost, `SET STATEMENT max_statement_time=0.01 FOR SELECT SLEEP(1)`,
			nil, 1969, toolerr.CodeUpstreamTimeout, false},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			a := call(t, c.method, execFn(c.stmt, c.args...))
			require.Equal(t, c.number, number(a.raw), "%v", a.raw)
			expect(t, a, c.code, c.retryable, fmt.Sprint(c.number))
		})
	}

	t.Run("access", func(t *testing.T) {
		s.exec(t, `CREATE USER 'reporter'@'127.0.0.1' IDENTIFIED BY 'r3port'`,
			`GRANT SELECT ON shop.orders TO 'reporter'@'127.0.0.1'`)
		reporter := s.open(t, "reporter", "r3port", "shop")
		a := call(t, http.MethodPost, func(ctx context.Context) error {
			_, err := reporter.ExecContext(ctx, `UPDATE orders SET qty = 2 WHERE id = 1`)
			return err
		})
		require.Equal(t, uint16(1142), number(a.raw), "%v", a.raw)
		expect(t, a, toolerr.CodeUpstreamMisconfigured, false, "1142")

		a = call(t, http.MethodGet, s.open(t, "reporter", "wrong", "shop").PingContext)
		require.Equal(t, uint16(1045), number(a.raw), "%v", a.raw)
		expect(t, a, toolerr.CodeUpstreamMisconfigured, false, "1045")
		assert.NotContains(t, a.body, "reporter", "the account name stays in the service")

		a = call(t, http.MethodGet, s.open(t, "reporter", "r3port", "mysql").PingContext)
		require.Equal(t, uint16(1044), number(a.raw), "%v", a.raw)
		expect(t, a, toolerr.CodeUpstreamMisconfigured, false, "1044")
	})

	t.Run("killed query", func(t *testing.T) {
		for _, method := range []string{http.MethodGet, http.MethodPost} {
			a := call(t, method, func(ctx context.Context) error {
				return killDuring(ctx, s, "QUERY")
			})
			require.Equal(t, uint16(1317), number(a.raw), "%v", a.raw)
			expect(t, a, toolerr.CodeUpstreamUnavailable, method == http.MethodGet, "1317")
		}
	})

	t.Run("killed connection", func(t *testing.T) {
		for _, method := range []string{http.MethodGet, http.MethodPost} {
			a := call(t, method, func(ctx context.Context) error {
				return killDuring(ctx, s, "CONNECTION")
			})
			require.ErrorIs(t, a.raw, mysql.ErrInvalidConn)
			expect(t, a, toolerr.CodeUpstreamUnavailable, method == http.MethodGet, "invalid_connection")
		}
	})
}

// killDuring runs SELECT SLEEP(10) on a connection of its own and, from
// the root pool, kills its query or its connection (kind) while it
// sleeps; it returns the sleeping statement's error, or the error of a
// step before it (which has no server number, so the caller's check of
// the number fails).
func killDuring(ctx context.Context, s *server, kind string) error {
	conn, err := s.root.Conn(ctx)
	if err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	defer conn.Close()
	var id int64
	if err := conn.QueryRowContext(ctx, `SELECT CONNECTION_ID()`).Scan(&id); err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	done := make(chan error, 1)
	go func() {
		var v sql.NullInt64
		done <- conn.QueryRowContext(ctx, `SELECT SLEEP(10)`).Scan(&v)
	}()
	if err := s.waitUntil(ctx, `SELECT COUNT(*) FROM information_schema.PROCESSLIST WHERE ID = ? AND STATE = 'User sleep'`, id); err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	if _, err := s.root.ExecContext(ctx, fmt.Sprintf("KILL %s %d", kind, id)); err != nil {
		return fmt.Errorf("setup: %w", err)
	}
	return <-done
}
