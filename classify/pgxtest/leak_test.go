package pgxtest

import (
	"context"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/middleware"
)

// TestNothingOfTheDatabaseReachesTheAgent: the errors pgx returns carry the
// DSN's user, host and database, the statement and its values; a tool
// returns them as they are, and the response, in every format the agent
// may ask for, holds none of them.
func TestNothingOfTheDatabaseReachesTheAgent(t *testing.T) {
	conn := connect(t, startPostgres(t))
	ctx := context.Background()
	_, err := conn.Exec(ctx, `CREATE TABLE api_keys (owner text PRIMARY KEY, secret text NOT NULL CHECK (length(secret) > 40))`)
	require.NoError(t, err)

	refused := refusedAddr(t)
	const (
		password = "Tr0ub4dor-and-3"
		secret   = "sk_live_51HxAbCdEfGhIjKlMnOpQrStUv"
		owner    = "grace.hopper@example.com"
	)
	tools := map[string]func(ctx context.Context) error{
		"refused": func(ctx context.Context) error {
			_, err := pgx.Connect(ctx, "postgres://billing_app:"+password+"@"+refused+"/ledger_prod?sslmode=disable")
			return err
		},
		"unresolvable": func(ctx context.Context) error {
			ctx, cancel := context.WithTimeout(ctx, 3*time.Second)
			defer cancel()
			_, err := pgx.Connect(ctx, "postgres://billing_app:"+password+"@orders-primary.db.internal:5432/ledger_prod")
			return err
		},
		"check": func(ctx context.Context) error {
			_, err := conn.Exec(ctx, `INSERT INTO api_keys (owner, secret) VALUES ($1, $2)`, owner, secret)
			return err
		},
		"syntax": func(ctx context.Context) error {
			_, err := conn.Exec(ctx, `SELEC secret FROM api_keys WHERE owner = '`+owner+`'`)
			return err
		},
	}
	// What each raw error says, so that the test below has something to
	// keep out.
	says := map[string]string{"refused": "billing_app", "unresolvable": "orders-primary", "check": "api_keys", "syntax": "SELEC"}
	for name, call := range tools {
		err := call(ctx)
		require.Error(t, err, name)
		require.Contains(t, err.Error(), says[name], name)
	}
	forbidden := []string{password, "billing_app", "ledger_prod", refused, "orders-primary", "db.internal", secret, owner, "api_keys", "SELEC", "INSERT"}
	h := middleware.New()
	for name, call := range tools {
		tool := h(middleware.Tool("open_"+name, func(_ http.ResponseWriter, r *http.Request) error {
			return call(r.Context())
		}))
		for _, accept := range []string{"application/problem+json", "text/plain", "text/markdown"} {
			req := httptest.NewRequest(http.MethodPost, "/tools/open_"+name, strings.NewReader("{}"))
			req.Header.Set("Accept", accept)
			rec := httptest.NewRecorder()
			tool.ServeHTTP(rec, req)
			require.GreaterOrEqual(t, rec.Code, 400, name)
			body := rec.Body.String()
			for _, f := range forbidden {
				assert.NotContains(t, body, f, "%s (%s)", name, accept)
			}
		}
	}
}
