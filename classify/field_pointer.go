package classify

import "strings"

// FieldPointer converts a vendor's path of an offending field to the JSON
// pointer (RFC 6901) that a violation's field is: the field paths of
// AIP-161 and google.rpc.BadRequest ("order.items[2].sku", "labels.`a.b`")
// and dotted or bracketed paths of other vendors ("items[0][name]")
// become "/order/items/2/sku", "/labels/a.b", "/items/0/name". A path that
// already starts with "/" is returned as it is; "" stays "" (the arguments
// as a whole). Segments are escaped as RFC 6901 says ("~" as "~0", "/" as
// "~1"). The result is as untrusted as the path: it still goes through
// the classifier's filter.
func FieldPointer(path string) string {
	if path == "" || path[0] == '/' {
		return path
	}
	var b strings.Builder
	b.Grow(len(path) + 4)
	seg := func(s string) {
		b.WriteByte('/')
		for i := 0; i < len(s); i++ {
			switch s[i] {
			case '~':
				b.WriteString("~0")
			case '/':
				b.WriteString("~1")
			default:
				b.WriteByte(s[i])
			}
		}
	}
	for i := 0; i < len(path); {
		switch c := path[i]; c {
		case '.':
			i++
		case '`':
			// A quoted segment: AIP-161 quotes keys holding dots.
			end := strings.IndexByte(path[i+1:], '`')
			if end < 0 {
				seg(path[i+1:])
				return b.String()
			}
			seg(path[i+1 : i+1+end])
			i += end + 2
		case '[':
			end := strings.IndexByte(path[i+1:], ']')
			if end < 0 {
				seg(path[i+1:])
				return b.String()
			}
			seg(strings.Trim(path[i+1:i+1+end], `"'`))
			i += end + 2
		default:
			j := i
			for j < len(path) && path[j] != '.' && path[j] != '[' && path[j] != '`' {
				j++
			}
			seg(path[i:j])
			i = j
		}
	}
	return b.String()
}
