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
	if k := strings.IndexByte(x, ' '); k >= 0 && !drivePath(x) {
		tok = x[:k] // a Windows path may hold spaces: "C:/Program Files/x.rb:1:in 'f'"
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

// rubyGemStart reports whether r starts like a gem frame of a Rails
// backtrace: a gem name, white space, then "(" and a digit.
func rubyGemStart(r string) bool {
	n := gemNameLen(r)
	if n == 0 || n == len(r) {
		return false
	}
	rest := skipSpaceRun(r[n:])
	return len(rest) < len(r)-n && len(rest) > 1 && rest[0] == '(' && isDigitByte(rest[1])
}

// gemNameLen returns the length of the gem name r starts with.
func gemNameLen(r string) int {
	n := 0
	for n < len(r) && (isWordByte(r[n]) || r[n] == '-' || r[n] == '.') {
		n++
	}
	return n
}

// rubyGemFrame reports whether r is a frame of a gem as Rails' backtrace
// cleaner writes it, the gem's name and version before its path:
//
//	actionpack (7.1.3) lib/action_controller/metal/basic_implicit_render.rb:6:in `send_action'
//
// msg is where a message after the frame starts in r, or len(r).
func rubyGemFrame(r string) (msg int, ok bool) {
	n := gemNameLen(r)
	if n == 0 || !strings.HasPrefix(r[n:], " (") {
		return 0, false
	}
	v := r[n+2:]
	k := strings.IndexByte(v, ')')
	if k < 1 || !isDigitByte(v[0]) || strings.IndexByte(v[:k], ' ') >= 0 || !strings.HasPrefix(v[k:], ") ") {
		return 0, false
	}
	off := n + 2 + k + 2
	if strings.HasPrefix(r[off:], "from ") {
		return 0, false
	}
	m, ok := rubyFrame(r[off:])
	if !ok {
		return 0, false
	}
	return off + m, true
}
