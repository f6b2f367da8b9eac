package sanitize

import "strings"

// rubyFrame reports whether r is a Ruby frame:
//
//	/app/x.rb:12:in 'Foo#bar'
//	from /app/x.rb:3:in `<main>'
//	app/models/user.rb:7:in `save': undefined method 'id' for nil (NoMethodError)
//
// The first line of a Ruby trace carries the message after the frame;
// msg is where it starts in r, or len(r).
func rubyFrame(r string) (msg int, ok bool) {
	off := 0
	if strings.HasPrefix(r, "from ") {
		off = len("from ")
	}
	x := r[off:]
	tok := x
	if k := strings.IndexByte(x, ' '); k >= 0 {
		tok = x[:k]
	}
	k := strings.Index(tok, ".rb:")
	if k < 1 {
		return 0, false
	}
	j := k + len(".rb:")
	n := digitsLen(x[j:])
	if n == 0 || !strings.HasPrefix(x[j+n:], ":in ") {
		return 0, false
	}
	m := j + n + len(":in ")
	if m >= len(x) || x[m] != '`' && x[m] != '\'' {
		return 0, false
	}
	c := strings.IndexByte(x[m+1:], '\'')
	if c < 0 {
		return 0, false
	}
	end := m + 1 + c + 1
	switch rest := x[end:]; {
	case rest == "":
		return len(r), true
	case strings.HasPrefix(rest, ": ") && len(rest) > 2:
		return off + end + 2, true
	}
	return 0, false
}
