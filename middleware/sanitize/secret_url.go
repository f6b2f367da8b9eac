package sanitize

import (
	"strings"

	"github.com/toolerr/toolerr/internal/asciifold"
)

// Credentials in URLs and DSNs, anchored at '@':
//
//   - scheme://user:password@host for databases and brokers (postgres,
//     postgresql, mysql, mongodb, mongodb+srv, redis, rediss, amqp, amqps,
//     JDBC URLs such as jdbc:postgresql://...): the user stays, the password
//     becomes [REDACTED:dsn-password];
//   - scheme://userinfo@host for any other scheme (https, ftp, ...): the
//     whole user information becomes [REDACTED:url-credentials], since a
//     user name there is often a token;
//   - the Go MySQL driver's user:password@tcp(host)/db and @unix(...).
//
// Scheme and host are kept.

var (
	dsnPasswordRepl = redacted("dsn-password")
	urlCredsRepl    = redacted("url-credentials")
)

// dsnSchemes are the URL schemes whose user information is user:password.
var dsnSchemes = []string{
	"postgres", "postgresql", "mysql", "mariadb", "mongodb", "mongodb+srv", "redis", "rediss",
	"amqp", "amqps", "sqlserver", "mssql", "oracle", "clickhouse", "cockroachdb", "nats",
	"memcached", "neo4j", "cassandra", "couchbase", "kafka", "ldap", "ldaps", "smtp", "smtps",
}

// maxUserinfo bounds how far back from '@' the user information is read.
const maxUserinfo = 512

// matchUserinfo records the credentials before the '@' at s[at], if any.
func matchUserinfo(s string, at int, out *spanList) {
	if s[at] != '@' {
		return
	}
	// Walk back over the user information to the "//" of the scheme. The
	// walk stops at an earlier '@': that one's match reads forward to the
	// last '@' of the authority, so each byte is walked once.
	p := at
	for p > 0 && at-p < maxUserinfo {
		c := s[p-1]
		if c == '/' || c == '@' || c <= ' ' || c == '"' || c == '\'' || c == '<' || c == '>' || c == '`' {
			break
		}
		p--
	}
	if p >= 3 && s[p-1] == '/' && s[p-2] == '/' && s[p-3] == ':' {
		matchURLUserinfo(s, p, lastAt(s, at), out)
		return
	}
	if strings.HasPrefix(s[at+1:], "tcp(") || strings.HasPrefix(s[at+1:], "tcp6(") ||
		strings.HasPrefix(s[at+1:], "unix(") {
		// Go MySQL DSN: the user information starts after a space, a
		// quote or '=' (dsn=user:pass@tcp(...)).
		u := at
		for u > 0 && at-u < maxUserinfo {
			c := s[u-1]
			if c <= ' ' || c == '"' || c == '\'' || c == '=' || c == '`' || c == '/' {
				break
			}
			u--
		}
		if colon := strings.IndexByte(s[u:at], ':'); colon >= 0 {
			addPassword(s, u+colon+1, at, out)
		}
	}
}

// lastAt returns the last '@' of the URL authority in which s[at] is an
// '@': passwords may hold one unencoded.
func lastAt(s string, at int) int {
	for k := at + 1; k < len(s) && k-at < maxUserinfo; k++ {
		switch c := s[k]; {
		case c == '@':
			at = k
		case c == '/' || c == '?' || c == '#' || c <= ' ' || c == '"' || c == '\'' || c == '<' || c == '>' || c == '`':
			return at
		}
	}
	return at
}

// matchURLUserinfo records the credentials s[u:at] of a URL whose "://"
// ends at s[u].
func matchURLUserinfo(s string, u, at int, out *spanList) {
	info := s[u:at]
	if info == "" || isPlaceholder(info) {
		return
	}
	// The scheme: letters, digits, '+', '-', '.' before "://".
	b := u - 3
	a := b
	for a > 0 && b-a < 32 && (isAlnumByte(s[a-1]) || s[a-1] == '+' || s[a-1] == '-' || s[a-1] == '.') {
		a--
	}
	if isDSNScheme(s[a:b]) {
		if colon := strings.IndexByte(info, ':'); colon >= 0 {
			addPassword(s, u+colon+1, at, out)
		}
		return
	}
	out.add(u, at, urlCredsRepl, KindSecret)
}

// addPassword records the DSN password s[start:end] unless it is empty or
// redacted already.
func addPassword(s string, start, end int, out *spanList) {
	if end > start && !isPlaceholder(s[start:end]) {
		out.add(start, end, dsnPasswordRepl, KindSecret)
	}
}

// isDSNScheme reports whether scheme (any case) names a database or broker.
func isDSNScheme(scheme string) bool {
	for _, d := range dsnSchemes {
		if len(scheme) == len(d) && asciifold.HasPrefix(scheme, d) {
			return true
		}
	}
	return false
}
