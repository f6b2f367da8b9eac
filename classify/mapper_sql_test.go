package classify

import (
	"database/sql"
	"database/sql/driver"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
)

// isConnDone says it is sql.ErrConnDone through its Is method.
type isConnDone struct{}

func (isConnDone) Error() string        { return "pool closed" }
func (isConnDone) Is(target error) bool { return target == sql.ErrConnDone }

// selfWrapping unwraps to itself: a broken chain with no end.
type selfWrapping struct{}

func (selfWrapping) Error() string   { return "loop" }
func (e selfWrapping) Unwrap() error { return e }

// TestSQLSentinelAgreesWithErrorsIs: the one-walk search finds what
// errors.Is finds, in every shape of tree, and ends on a cyclic chain.
func TestSQLSentinelAgreesWithErrorsIs(t *testing.T) {
	cases := []struct {
		err  error
		want string
	}{
		{sql.ErrNoRows, "no_rows"},
		{fmt.Errorf("load: %w", fmt.Errorf("scan: %w", sql.ErrNoRows)), "no_rows"},
		{errors.Join(errors.New("first"), fmt.Errorf("pool: %w", driver.ErrBadConn)), "bad_conn"},
		{fmt.Errorf("two: %w and %w", errors.New("x"), sql.ErrTxDone), "tx_done"},
		{fmt.Errorf("wrapped: %w", isConnDone{}), "conn_done"},
		{errors.New("sql: no rows in result set"), ""}, // the same text is not the sentinel
		{selfWrapping{}, ""},
		{nil, ""},
	}
	for _, c := range cases {
		assert.Equal(t, c.want, sqlSentinel(c.err, 0), "%v", c.err)
		if c.want != "" {
			var found bool
			for _, s := range sqlSentinels {
				if s.code == c.want {
					found = errors.Is(c.err, s.err)
				}
			}
			assert.True(t, found, "errors.Is agrees on %v", c.err)
		}
	}
}
