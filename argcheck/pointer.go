package argcheck

import (
	"strconv"
	"strings"
)

// JSON pointers (RFC 6901) over decoded JSON: map[string]any, []any and
// scalars, as validator.UnmarshalJSON and encoding/json produce them.

// splitPointer returns the unescaped reference tokens of pointer p; p is
// "" for the whole value, or starts with "/".
func splitPointer(p string) []string {
	if p == "" {
		return nil
	}
	tokens := strings.Split(strings.TrimPrefix(p, "/"), "/")
	for i, t := range tokens {
		if strings.Contains(t, "~") {
			tokens[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
		}
	}
	return tokens
}

// joinPointer returns the pointer of tokens, each escaped.
func joinPointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.ReplaceAll(strings.ReplaceAll(t, "~", "~0"), "/", "~1"))
	}
	return b.String()
}

// child returns the pointer of the member name under p.
func child(p, name string) string {
	return p + joinPointer([]string{name})
}

// lookup returns the value at pointer p in v.
func lookup(v any, p string) (any, bool) {
	for _, t := range splitPointer(p) {
		switch c := v.(type) {
		case map[string]any:
			next, ok := c[t]
			if !ok {
				return nil, false
			}
			v = next
		case []any:
			i, err := strconv.Atoi(t)
			if err != nil || i < 0 || i >= len(c) {
				return nil, false
			}
			v = c[i]
		default:
			return nil, false
		}
	}
	return v, true
}

// parentOf returns the container holding the value at p, and p's last
// token; ok is false for the root or when the path does not exist.
func parentOf(v any, p string) (parent any, last string, ok bool) {
	tokens := splitPointer(p)
	if len(tokens) == 0 {
		return nil, "", false
	}
	parent, ok = lookup(v, joinPointer(tokens[:len(tokens)-1]))
	return parent, tokens[len(tokens)-1], ok
}

// set stores value at pointer p of v, in place: a member of an object
// (added when absent) or an existing element of an array. It reports
// whether it could.
func set(v any, p string, value any) bool {
	parent, last, ok := parentOf(v, p)
	if !ok {
		return false
	}
	switch c := parent.(type) {
	case map[string]any:
		c[last] = value
		return true
	case []any:
		i, err := strconv.Atoi(last)
		if err != nil || i < 0 || i >= len(c) {
			return false
		}
		c[i] = value
		return true
	}
	return false
}

// rename moves the member at p to the sibling name to, in place, unless
// to is already there; it reports whether it did.
func rename(v any, p, to string) bool {
	parent, last, ok := parentOf(v, p)
	m, isObject := parent.(map[string]any)
	if !ok || !isObject {
		return false
	}
	value, present := m[last]
	if _, taken := m[to]; !present || taken {
		return false
	}
	delete(m, last)
	m[to] = value
	return true
}

// deepCopy copies the containers of decoded JSON; scalars are immutable.
func deepCopy(v any) any {
	switch c := v.(type) {
	case map[string]any:
		m := make(map[string]any, len(c))
		for k, x := range c {
			m[k] = deepCopy(x)
		}
		return m
	case []any:
		a := make([]any, len(c))
		for i, x := range c {
			a[i] = deepCopy(x)
		}
		return a
	}
	return v
}
