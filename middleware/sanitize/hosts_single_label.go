package sanitize

import (
	"net/netip"
	"strconv"
	"strings"
)

// Single-label hosts in URLs. A public host name has at least one dot; a
// URL whose host is one label ("http://payments-api:8080/",
// "jdbc:postgresql://pg-primary:5432/app", GCP's "http://metadata/") names
// a service only a private network resolves: a Docker Compose or
// Kubernetes service, or a name from a search domain. Only the URL form is
// taken: outside a URL a lone word before a port ("error:123") is far more
// often not a host.

// networkSchemes are the URL schemes whose authority is a network host.
// Storage schemes ("s3://bucket", "gs://bucket") name buckets, which are
// single labels and public.
var networkSchemes = []string{
	"http", "https", "ws", "wss", "ftp", "ftps", "sftp", "ssh", "tcp", "udp", "grpc", "grpcs",
	"postgres", "postgresql", "mysql", "mariadb", "sqlserver", "mongodb", "redis", "rediss",
	"amqp", "amqps", "nats", "kafka", "memcached", "ldap", "ldaps", "smtp", "smtps", "imap",
}

// urlScheme returns the scheme that ends at s[i], where "://" starts.
func urlScheme(s string, i int) string {
	a := i
	for a > 0 && (isAlnumByte(s[a-1]) || s[a-1] == '+' || s[a-1] == '-' || s[a-1] == '.') {
		a--
	}
	return s[a:i]
}

// isNetworkScheme reports whether scheme, in any case, is a networkSchemes
// member.
func isNetworkScheme(scheme string) bool {
	for _, n := range networkSchemes {
		if strings.EqualFold(scheme, n) {
			return true
		}
	}
	return false
}

// matchSingleLabelHost records the host of the URL whose "://" ends at
// s[p], when its scheme is a network one and its host is a single label: letters, digits, '-' and '_', with at
// least one letter, ended by a port, a path, a query, a fragment, a quote,
// white space or the end of the text. Userinfo before an '@' is skipped;
// "localhost" is left to its own rule, and numbers to the address rules.
func matchSingleLabelHost(s string, p int, out *spanList) {
	if p < 3 || !isNetworkScheme(urlScheme(s, p-3)) {
		return
	}
	authEnd := p // placeholders of the secrets stage ("[REDACTED:…]") may sit in the userinfo
	for authEnd < len(s) && !strings.ContainsRune("/?#\"'`<>(){} \t\r\n", rune(s[authEnd])) {
		authEnd++
	}
	if at := strings.LastIndexByte(s[p:authEnd], '@'); at >= 0 {
		p += at + 1
	}
	e, letters := p, 0
	for e < len(s) && (isAlnumByte(s[e]) || s[e] == '-' || s[e] == '_') {
		if !isDigitByte(s[e]) {
			letters++
		}
		e++
	}
	if e == p || e < len(s) && s[e] != ':' && e != authEnd {
		return // no label, or a dotted name
	}
	if ip, ok := numericIPv4(s[p:e]); ok {
		// "http://2852039166/" and "http://0xA9FEA9FE/" are the metadata
		// address as URL parsers and inet_aton read one number.
		if isPrivateIP(ip) {
			out.add(p, e, privateIPMark, KindPrivateIP)
		}
		return
	}
	if letters == 0 {
		return
	}
	if e < len(s) && s[e] == ':' && e+1 < len(s) && !isDigitByte(s[e+1]) && e+1 != authEnd {
		return // "scheme://word:" without a port is no host and port
	}
	if strings.EqualFold(s[p:e], "localhost") {
		return
	}
	out.add(p, e, internalHostMark, KindInternalHost)
}

// numericIPv4 reads a URL host written as one number, decimal or "0x"
// hexadecimal, as the IPv4 address it stands for; numbers below 2^24
// (0.x.x.x) are not taken.
func numericIPv4(label string) (netip.Addr, bool) {
	var n uint64
	var err error
	switch {
	case len(label) > 2 && (label[:2] == "0x" || label[:2] == "0X"):
		n, err = strconv.ParseUint(label[2:], 16, 32)
	case label != "" && strings.Trim(label, "0123456789") == "":
		n, err = strconv.ParseUint(label, 10, 32)
	default:
		return netip.Addr{}, false
	}
	if err != nil || n < 1<<24 {
		return netip.Addr{}, false // a small number is a port or an id, not 0.x.x.x
	}
	return netip.AddrFrom4([4]byte{byte(n >> 24), byte(n >> 16), byte(n >> 8), byte(n)}), true
}
