package mysqlerr_test

import (
	"context"
	"errors"
	"net/http"
	"testing"

	"github.com/go-sql-driver/mysql"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
)

// TestDuplicateKeyKeepsTheValuesOut: MySQL's duplicate-key message quotes
// the key, here a customer's e-mail and API token. Neither reaches the
// agent: not the problem+json body, not the observation a model reads.
func TestDuplicateKeyKeepsTheValuesOut(t *testing.T) {
	t.Parallel() // each test has a server of its own
	s := startMariaDB(t)
	s.exec(t, schema...)
	const email, token = "maria.lopez@example.com", "sk_live_4eC39HqLyjWDarjtT1zdp7dc"
	a := call(t, http.MethodPost, func(ctx context.Context) error {
		_, err := s.root.ExecContext(ctx, `INSERT INTO customers VALUES (7, ?, ?)`, email, token)
		return err
	})
	me, ok := errors.AsType[*mysql.MySQLError](a.raw)
	require.True(t, ok, "%v", a.raw)
	require.Equal(t, uint16(1062), me.Number)
	require.Contains(t, me.Message, email, "the server's message quotes the key: the test would catch a leak")
	require.Contains(t, me.Message, token)

	expect(t, a, toolerr.CodeConflict, false, "1062")
	for _, secret := range []string{email, token, "sk_live", "maria.lopez", "Duplicate entry"} {
		assert.NotContains(t, a.body, secret, "problem+json")
		assert.NotContains(t, a.err.Observation(), secret, "observation")
	}
	assert.Equal(t, "The request conflicts with the current state", a.err.Detail, "the code's title, not the server's message")
}
