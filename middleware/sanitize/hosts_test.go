package sanitize

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// TestHostsRedacted checks internal addresses and host names, with the
// prefilter and without.
func TestHostsRedacted(t *testing.T) {
	cases := []struct{ in, want string }{
		{"dial tcp 10.0.0.5:5432: connection refused", "dial tcp [private-ip]:5432: connection refused"},
		{"from 192.168.1.20 and 172.16.0.1 and 172.31.255.254", "from [private-ip] and [private-ip] and [private-ip]"},
		{"loopback 127.0.0.1 and ::1 and [::1]:8080", "loopback [private-ip] and [private-ip] and [private-ip]:8080"},
		{"metadata at http://169.254.169.254/latest/meta-data", "metadata at http://[private-ip]/latest/meta-data"},
		{"imds [fd00:ec2::254]:80 or fd00:ec2::254", "imds [private-ip]:80 or [private-ip]"},
		{"link local fe80::1%eth0 and [fe80::1]:80", "link local [private-ip] and [private-ip]:80"},
		{"cgnat 100.64.0.1 and 100.127.255.254", "cgnat [private-ip] and [private-ip]"},
		{"ula fc00::1 and fd12:3456:789a::1", "ula [private-ip] and [private-ip]"},
		{"bind 0.0.0.0:80 and [::]:80", "bind [private-ip]:80 and [private-ip]:80"},
		{"mapped ::ffff:10.0.0.1 here", "mapped [private-ip] here"},
		{"at 10.1.2.3.", "at [private-ip]."},
		{"range 10.0.0.1-10.0.0.9", "range [private-ip]-[private-ip]"},
		{"lookup api.internal: no such host", "lookup [internal-host]: no such host"},
		{"http://payments.prod.svc.cluster.local:8080/charge", "http://[internal-host]:8080/charge"},
		{"redis.default.svc and printer.local and nas.lan and router.home.arpa", "[internal-host] and [internal-host] and [internal-host] and [internal-host]"},
		{"app.localhost:3000 and localhost:5432 and LocalHost", "[internal-host]:3000 and [internal-host]:5432 and [internal-host]"},
		{"DB.Internal is down", "[internal-host] is down"},
		{"vault.corp.example.net:8200 sealed", "[internal-host]:8200 sealed"},
		{"worker web-7f9c crashed on web-7f9c.eu.example.com", "worker [internal-host] crashed on [internal-host]"},
		{"WEB-7F9C restarted", "[internal-host] restarted"},
		// The private naming conventions of clouds and service meshes.
		{"dial tcp: lookup web.service.consul: no such host", "dial tcp: lookup [internal-host]: no such host"},
		{"node-1.node.dc1.consul:8500 and vault.service.Consul", "[internal-host]:8500 and [internal-host]"},
		{"vm-1.abcdefgh12.internal.cloudapp.net refused", "[internal-host] refused"},
		{"db.x1y2.internal.chinacloudapp.cn:1433", "[internal-host]:1433"},
		{"ip-10-0-0-5.ec2.internal and ip-10-0-0-5.eu-west-1.compute.internal", "[internal-host] and [internal-host]"},
		{"vm-1.us-central1-a.c.my-project.internal:9200", "[internal-host]:9200"},
		{"host.docker.internal:5432", "[internal-host]:5432"},
		{"grpc://reviews.bookinfo.svc.cluster.local:9080", "grpc://[internal-host]:9080"},
		{"payments.default.svc and backend.mesh:8080", "[internal-host] and [internal-host]:8080"},
		{"dc01.acme.corp and files.intranet and git.private", "[internal-host] and [internal-host] and [internal-host]"},
		{"localhost.localdomain and db.localdomain", "[internal-host] and [internal-host]"},
		{"vm-1.subnet1.vcn1.oraclevcn.com timed out", "[internal-host] timed out"},
	}
	for _, c := range cases {
		on, off := bothModes(WithHostname("web-7f9c"), WithInternalSuffixes(".corp.example.net"))
		for _, s := range []*Sanitizer{on, off} {
			got, rep := s.Clean(c.in)
			assert.Equal(t, c.want, got, c.in)
			assert.True(t, rep.Redacted(), c.in)
			again, _ := s.Clean(got)
			assert.Equal(t, got, again, "idempotent: %s", c.in)
		}
	}
}

// TestHostsKept checks that public addresses, public hosts, version
// numbers and other look-alikes survive.
func TestHostsKept(t *testing.T) {
	for _, in := range []string{
		"resolver 8.8.8.8 and 1.1.1.1:53 and 2606:4700::1111",
		"https://api.stripe.com/v1/charges and example.com",
		"version 1.2.3.4.5 and v10.0.0.1-beta and 10.0.0.1a",
		"release 10.0.0 and 192.168.1 and 3.14159",
		"leading zeros 010.000.000.001 are ambiguous",
		"at 12:30:45 the MAC aa:bb:cc:dd:ee:ff changed",
		"std::string and Foo::Bar and a::b",
		"f :: Int -> Int and SONAR.LOGIN ::= x and listen on :: all",
		"locally, the localization team is local",
		"my-localhost-tool and localhost2",
		"the web-7f9c2 host and myweb-7f9c are someone else",
		"internal.example.com and local.example.org",
		"hash 9fceb02d0ae598e95dc970b74767f19372d61af8 and uuid 123e4567-e89b-12d3-a456-426614174000",
		// Public names next to the private conventions stay.
		"status.aws.amazon.com and ec2-3-80-1-2.compute-1.amazonaws.com and s3.eu-west-1.amazonaws.com",
		"https://myapp.azurewebsites.net and acct.blob.core.windows.net and www.consul.io and cloudapp.net",
		"mydb.c9akciq32.eu-west-1.rds.amazonaws.com and storage.googleapis.com and www.oracle.com",
		"internal.cloudapp.net.example.com and consul.example.com and corp.example.com and mesh.example.org",
		"the consul agent, a service mesh, the corp intranet and private keys",
		"request req_8f2c1a9b3d, order ord_1234, idempotency key 8e1f0b1c-5a4e-4f0e-9a57-3c2b1d0e9f8a",
		"user.home is not set; see user.dir",
	} {
		for _, s := range []*Sanitizer{New(WithHostname("web-7f9c")), New(WithHostname("web-7f9c"), withoutPrefilter())} {
			got, rep := s.Clean(in)
			assert.Equal(t, in, got)
			assert.False(t, rep.Redacted(), in)
		}
	}
}

// TestHostsReportCounts checks the kinds and counts of the report.
func TestHostsReportCounts(t *testing.T) {
	_, rep := New(WithHostname("")).Clean("a 10.0.0.1 b 10.0.0.2:80 c db.internal d ::1")
	assert.Equal(t, 3, rep.Count(KindPrivateIP))
	assert.Equal(t, 1, rep.Count(KindInternalHost))
	assert.Zero(t, rep.Count(KindSecret))
}

// TestOwnHostnameIgnored checks that a short own host name, or
// "localhost", adds no rule.
func TestOwnHostnameIgnored(t *testing.T) {
	for _, name := range []string{"", "ab", "localhost", "LOCALHOST."} {
		r := newHostRules(name, nil, true)
		assert.Len(t, r.words, 1, name) // "localhost" only
	}
	r := newHostRules("Web1.Corp.Example.com.", nil, true)
	assert.Len(t, r.words, 3) // localhost, the full name, its first label
	got, _ := New(WithHostname("Web1.Corp.Example.com.")).Clean("on web1 and WEB1.corp.example.com and web10")
	assert.Equal(t, "on [internal-host] and [internal-host] and web10", got)
}
