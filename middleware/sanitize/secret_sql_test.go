package sanitize

import "testing"

// TestSQLPasswords: the literal after PASSWORD, PASSWORD( or IDENTIFIED BY
// in an echoed statement is redacted; other literals, placeholders and
// prose stay.
func TestSQLPasswords(t *testing.T) {
	checkCleanCases(t, []cleanCase{
		{"postgres", `ERROR: syntax error at or near "PASSWORD" LINE 1: ALTER USER bob WITH PASSWORD 'Tr0ub4dor&3x';`,
			`ERROR: syntax error at or near "PASSWORD" LINE 1: ALTER USER bob WITH PASSWORD '[REDACTED:password]';`},
		{"mysql identified by", `ALTER USER 'app'@'localhost' IDENTIFIED BY 'S3cretPassw0rd';`,
			`ALTER USER 'app'@'[internal-host]' IDENTIFIED BY '[REDACTED:password]';`},
		{"password function", `SET PASSWORD FOR 'bob'@'%' = PASSWORD('hunter2x');`,
			`SET PASSWORD FOR 'bob'@'%' = PASSWORD('[REDACTED:password]');`},
		{"lower case", `create user x identified by 'q7Rk2vLx9T';`, `create user x identified by '[REDACTED:password]';`},
		{"bind parameter", `ALTER USER bob WITH PASSWORD '?'`, `ALTER USER bob WITH PASSWORD '?'`},
		{"other literals", `SELECT * FROM users WHERE name = 'bob' AND role = 'admin'`, `SELECT * FROM users WHERE name = 'bob' AND role = 'admin'`},
		{"prose", `the field 'password' is required`, `the field 'password' is required`},
		{"word ending in by", `sorted by 'name'`, `sorted by 'name'`},
		{"unclosed", `WITH PASSWORD 'abc`, `WITH PASSWORD 'abc`},
	})
}
