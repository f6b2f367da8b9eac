package sanitize

import (
	"net/netip"
	"strings"

	"github.com/toolerr/toolerr/internal/asciifold"
)

// The internal-hosts stage.
//
// Addresses: an IPv4 or IPv6 address (parsed with net/netip, IPv4 with
// exactly four decimal parts and IPv6 with a zone or in brackets too) that
// is private (RFC 1918, fc00::/7), loopback, link-local (which holds the
// metadata addresses 169.254.169.254 and, in fd00:ec2::/32 of fc00::/7,
// fd00:ec2::254), CGNAT (100.64.0.0/10), unspecified, or an IPv4-mapped
// IPv6 form of one becomes "[private-ip]". A port after it stays:
// "10.0.0.5:5432" becomes "[private-ip]:5432", "[fe80::1]:80" becomes
// "[private-ip]:80". Public addresses stay.
//
// Host names: a name ending in one of builtinSuffixes (hosts_suffixes.go:
// .internal, .local, .svc, .consul, .internal.cloudapp.net, .corp, …) or a
// configured suffix, the bare name "localhost", and the server's own host
// name (whole labels, any case) become "[internal-host]", the whole dotted
// name included.
//
// Tokens need proper boundaries: "1.2.3.4.5" and "v10.0.0.1-beta" are
// version numbers, not addresses.

const (
	privateIPMark    = "[private-ip]"
	internalHostMark = "[internal-host]"
)

// cgnat is the shared address space of carrier-grade NAT, RFC 6598.
var cgnat = netip.MustParsePrefix("100.64.0.0/10")

// siteLocal is the deprecated IPv6 site-local range, still private.
var siteLocal = netip.MustParsePrefix("fec0::/10")

// hostRules is the compiled internal-hosts stage of a Sanitizer. It is
// immutable after newHostRules and safe for concurrent use.
type hostRules struct {
	suffixes [26][]string // lower-case suffixes by their first letter
	words    []wordRule   // "localhost" and the own host name
	dot      finder
	colon    finder
}

// newHostRules compiles the internal-hosts stage for the server's own host
// name (ignored when shorter than 3 bytes or "localhost") and the extra DNS
// suffixes. prefilter false makes every rule run at every position.
func newHostRules(hostname string, suffixes []string, prefilter bool) *hostRules {
	r := &hostRules{dot: byteFinder('.', prefilter), colon: byteFinder(':', prefilter)}
	for _, sfx := range append(builtinSuffixes[:len(builtinSuffixes):len(builtinSuffixes)], suffixes...) {
		sfx = strings.ToLower(strings.Trim(sfx, ". "))
		if sfx != "" && sfx[0] >= 'a' && sfx[0] <= 'z' {
			r.suffixes[sfx[0]-'a'] = append(r.suffixes[sfx[0]-'a'], sfx)
		} else if sfx != "" && isAlnumByte(sfx[0]) { // a suffix starting with a digit
			r.suffixes[0] = append(r.suffixes[0], sfx)
		}
	}
	words := []string{"localhost"}
	hostname = strings.ToLower(strings.TrimSuffix(hostname, "."))
	if len(hostname) >= 3 && hostname != "localhost" {
		words = append(words, hostname)
		if dot := strings.IndexByte(hostname, '.'); dot >= 3 {
			words = append(words, hostname[:dot])
		}
	}
	for _, w := range words {
		r.words = append(r.words, newWordRule(w, prefilter))
	}
	return r
}

// redact returns s with internal hosts and private addresses replaced,
// counting them in rep. When nothing is found it returns s itself.
func (r *hostRules) redact(s string, rep *Report) string {
	var out spanList
	for i := r.dot(s, 0); i >= 0; i = r.dot(s, i) {
		i = r.matchDot(s, i, &out)
	}
	next := 0       // IPv6 candidates never overlap
	var aws awsText // whether s speaks of AWS (hosts_arn.go), once known
	for i := r.colon(s, 0); i >= 0; i = r.colon(s, max(i+1, next)) {
		if strings.HasPrefix(s[i:], "://") {
			matchSingleLabelHost(s, i+3, &out) // hosts_single_label.go
		}
		if i >= 3 && s[i-3] == 'a' && s[i-2] == 'r' && s[i-1] == 'n' {
			matchARN(s, i-3, &out) // hosts_arn.go
		}
		if i >= 7 && (s[i-1]|0x20 == 't' || s[i-1]|0x20 == 'd' || s[i-1]|0x20 == 'r' || s[i-1] == '"' || s[i-1] == '\'') {
			matchAccountLabel(s, i, &aws, &out)
		}
		if s[i] == ':' && i >= next {
			next = matchIPv6(s, i, &out)
		}
	}
	for _, w := range r.words {
		for _, find := range w.find {
			for i := find(s, 0); i >= 0; i = find(s, i) {
				i = max(i+1, matchWord(s, i-w.anchor, w.word, &out))
			}
		}
	}
	return out.apply(s, rep)
}

// matchDot tries the rules anchored at the '.' at s[i]: an IPv4 address
// and an internal DNS suffix. It returns where the search may go on: past
// the digits and dots of an IPv4 candidate, which all give the same one.
func (r *hostRules) matchDot(s string, i int, out *spanList) int {
	if s[i] != '.' || i == 0 || i+1 >= len(s) {
		return i + 1
	}
	if isDigitByte(s[i-1]) && isDigitByte(s[i+1]) {
		return max(i+1, matchIPv4(s, i, out))
	}
	c := asciifold.Lower(s[i+1])
	var list []string
	switch {
	case c >= 'a' && c <= 'z':
		list = r.suffixes[c-'a']
	case isDigitByte(c):
		list = r.suffixes[0]
	}
	for _, sfx := range list {
		end := i + 1 + len(sfx)
		if asciifold.HasPrefix(s[i+1:], sfx) && hostEndsAt(s, end) && isHostByte(s[i-1]) {
			out.add(hostStart(s, i), end, internalHostMark, KindInternalHost)
			return end
		}
	}
	return i + 1
}

// hostEndsAt reports whether a host name may end at s[end]: no label byte
// follows, nor a dot and another label.
func hostEndsAt(s string, end int) bool {
	if end >= len(s) {
		return true
	}
	if continuesAt(s, end) {
		return false
	}
	return s[end] != '.' || end+1 >= len(s) || !isHostByte(s[end+1])
}

// continuesAt reports whether the token before s[i] goes on at s[i]: a
// label byte follows, or the mark of a cut, behind which the token went on
// before the output was truncated. Treating the mark so keeps a cut
// "10.0.0.256" (no address) from becoming the address "10.0.0.25…" when
// cleaned again.
func continuesAt(s string, i int) bool {
	return i < len(s) && (isHostByte(s[i]) || strings.HasPrefix(s[i:], truncationMark))
}

// hostStart returns the start of the dotted host name that holds s[i-1].
func hostStart(s string, i int) int {
	for i > 0 && (isHostByte(s[i-1]) || s[i-1] == '.' && i >= 2 && isHostByte(s[i-2])) {
		i--
	}
	return i
}

// hostEnd returns the end of the dotted host name that holds s[i].
func hostEnd(s string, i int) int {
	for i < len(s) && (isHostByte(s[i]) || s[i] == '.' && i+1 < len(s) && isHostByte(s[i+1])) {
		i++
	}
	return i
}

// matchWord records the host name that holds the word w at s[i], in any
// case, when w is whole labels of it, and returns the end of that name (0
// when there is none): every later match inside it gives the same name.
func matchWord(s string, i int, w string, out *spanList) int {
	if i < 0 || !asciifold.HasPrefix(s[i:], w) {
		return 0
	}
	end := i + len(w)
	if i > 0 && isHostByte(s[i-1]) || continuesAt(s, end) {
		return 0
	}
	end = hostEnd(s, end)
	out.add(hostStart(s, i), end, internalHostMark, KindInternalHost)
	return end
}

// matchIPv4 records the private IPv4 address around the '.' at s[i], and
// returns the end of the candidate's digits and dots, trailing dots
// excluded (a suffix rule may start at one).
func matchIPv4(s string, i int, out *spanList) int {
	a := i
	for a > 0 && (isDigitByte(s[a-1]) || s[a-1] == '.') {
		a--
	}
	b := i
	for b < len(s) && (isDigitByte(s[b]) || s[b] == '.') {
		b++
	}
	for b > a && s[b-1] == '.' {
		b--
	}
	if a > 0 && (isWordByte(s[a-1]) || s[a-1] == '.') || !hostEndsAt(s, b) && s[b] != '-' {
		return b
	}
	if strings.Count(s[a:b], ".") != 3 {
		return b
	}
	if ip, err := netip.ParseAddr(s[a:b]); err == nil && isPrivateIP(ip) {
		out.add(a, b, privateIPMark, KindPrivateIP)
	}
	return b
}

// matchIPv6 records the private IPv6 address that holds the ':' at s[i],
// and returns the end of the candidate, past which the search goes on.
func matchIPv6(s string, i int, out *spanList) int {
	isV6 := func(c byte) bool { return isHexByte(c) || c == ':' || c == '.' }
	a := i
	for a > 0 && isV6(s[a-1]) {
		a--
	}
	b := i
	for b < len(s) && isV6(s[b]) {
		b++
	}
	end := b
	if a > 0 && (isWordByte(s[a-1]) || s[a-1] == '.') {
		return end
	}
	for b > a && s[b-1] == '.' {
		b--
	}
	if strings.Count(s[a:b], ":") < 2 || s[a:b] == "::" && (a == 0 || s[a-1] != '[') {
		// "::" outside brackets is syntax far more often than an address
		// (Haskell's "f :: Int", Make's "::=", Rust's "a :: b"); "[::]:80"
		// is the address.
		return end
	}
	zoneEnd := b
	if b < len(s) && s[b] == '%' {
		zoneEnd = b + 1
		for zoneEnd < len(s) && isHostByte(s[zoneEnd]) {
			zoneEnd++
		}
		if zoneEnd == b+1 {
			zoneEnd = b
		}
		end = max(end, zoneEnd)
	}
	if zoneEnd < len(s) && isWordByte(s[zoneEnd]) || strings.HasPrefix(s[zoneEnd:], truncationMark) {
		return end
	}
	ip, err := netip.ParseAddr(s[a:zoneEnd])
	if err != nil && zoneEnd == b && s[b-1] == ':' && s[b-2] != ':' {
		b--
		zoneEnd = b
		ip, err = netip.ParseAddr(s[a:b])
	}
	if err != nil || !isPrivateIP(ip) {
		return end
	}
	if a > 0 && s[a-1] == '[' && zoneEnd < len(s) && s[zoneEnd] == ']' {
		a, zoneEnd = a-1, zoneEnd+1
	}
	out.add(a, zoneEnd, privateIPMark, KindPrivateIP)
	return end
}

// isPrivateIP reports whether ip must not leak: private, loopback,
// link-local, CGNAT, site-local, unspecified or in 0.0.0.0/8.
func isPrivateIP(ip netip.Addr) bool {
	ip = ip.Unmap()
	if b := ip.As16(); ip.Is6() && [12]byte(b[:12]) == [12]byte{} && !ip.IsLoopback() && !ip.IsUnspecified() {
		// An IPv4-compatible address ("::10.0.0.1", deprecated by RFC
		// 4291) is judged by the IPv4 address it embeds.
		ip = netip.AddrFrom4([4]byte(b[12:]))
	}
	if ip.Is4() && ip.As4()[0] == 0 {
		return true
	}
	return ip.IsPrivate() || ip.IsLoopback() || ip.IsLinkLocalUnicast() || ip.IsUnspecified() ||
		cgnat.Contains(ip) || siteLocal.Contains(ip.WithZone(""))
}
