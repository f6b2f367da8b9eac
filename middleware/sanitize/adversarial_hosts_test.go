package sanitize

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestAdversarialHostFormsRedacted covers host forms the existing tests do
// not: upper case, a trailing dot, SCP and SSH syntax, IPv4-mapped and
// zoned IPv6 in brackets, and CIDR and range notation.
func TestAdversarialHostFormsRedacted(t *testing.T) {
	s := New(WithHostname(""))
	cases := []struct{ in, want string }{
		{"lookup DB.PROD.INTERNAL: no such host", "lookup [internal-host]: no such host"},
		{"lookup db.prod.internal. on 10.96.0.10:53: no such host", "lookup [internal-host]. on [private-ip]:53: no such host"},
		{"scp deploy@10.0.0.5:/etc/app.conf .", "scp deploy@[private-ip]:/etc/app.conf ."},
		{"git@gitlab.corp:team/repo.git", "git@[internal-host]:team/repo.git"},
		{"http://[::ffff:a9fe:a9fe]/latest", "http://[private-ip]/latest"},
		{"dial tcp [fe80::1%25eth0]:80: refused", "dial tcp [private-ip]:80: refused"},
		{"192.168.1.1-192.168.1.50 and 10.0.0.0/8", "[private-ip]-[private-ip] and [private-ip]/8"},
		{"X-Forwarded-For: 203.0.113.5,10.0.0.7", "X-Forwarded-For: 203.0.113.5,[private-ip]"},
	}
	for _, c := range cases {
		out, _ := s.Clean(c.in)
		assert.Equal(t, c.want, out, "in: %q", c.in)
	}
}
