package sanitize

import "strings"

// goroutineHeader reports whether r opens a goroutine in a Go panic or
// runtime/debug.Stack dump: "goroutine 1 [running]:".
func goroutineHeader(r string) bool {
	rest, ok := strings.CutPrefix(r, "goroutine ")
	if !ok {
		return false
	}
	n := digitsLen(rest)
	return n > 0 && strings.HasPrefix(rest[n:], " [") && strings.HasSuffix(rest, "]:")
}

// goFileLine reports whether r, a tab-indented line, is the file line of a
// Go frame: "/app/main.go:12 +0x1d", "/app/main.go:12" (pkg/errors),
// "/usr/local/go/src/runtime/asm_amd64.s:1598", "C:/Program
// Files/Go/src/runtime/panic.go:770 +0x132".
func goFileLine(r string) bool {
	k := strings.Index(r, ".go:")
	if k < 0 {
		k = strings.Index(r, ".s:")
		if k < 0 {
			return false
		}
		k--
	}
	if k < 1 || strings.IndexByte(r[:k], ' ') >= 0 && !drivePath(r) {
		return false
	}
	rest := r[k+4:]
	n := digitsLen(rest)
	if n == 0 {
		return false
	}
	rest = rest[n:]
	return rest == "" || strings.HasPrefix(rest, " +0x") || strings.HasPrefix(rest, " fp=")
}

// goFuncLine reports whether t, the line above a Go file line, names the
// frame's function: "main.main()", "github.com/x/y.(*T).M(0xc0, {0x1, 0x2})",
// "main.load" (pkg/errors), "panic({0x4a1b20?, 0x4c5230?})", "created by
// main.main in goroutine 1". Outside brackets it holds no space.
func goFuncLine(t string) bool {
	t = strings.TrimRight(t, " \t")
	if rest, ok := strings.CutPrefix(t, "created by "); ok {
		t = rest
		if k := strings.Index(t, " in goroutine "); k >= 0 {
			t = t[:k]
		}
	}
	if t == "" || t[0] == ' ' || t[0] == '\t' {
		return false
	}
	depth, dot := 0, false
	for i := 0; i < len(t); i++ {
		switch t[i] {
		case '(', '{', '[':
			depth++
		case ')', '}', ']':
			depth--
		case ' ':
			if depth <= 0 {
				return false
			}
		case '.':
			dot = true
		}
	}
	return dot || t[len(t)-1] == ')'
}
