package translate

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// checkReadObject checks readObject against encoding/json: the same
// bodies are objects, with the same members, byte for byte, and each
// string member decodes as encoding/json decodes it.
func checkReadObject(t *testing.T, body []byte) {
	t.Helper()
	got := readObject(body)
	var want map[string]json.RawMessage
	b := trimLeftSpace(body)
	isObject := len(b) > 0 && b[0] == '{' && json.Unmarshal(b, &want) == nil
	if !isObject {
		if got != nil {
			t.Fatalf("readObject(%q) = %v, want nil", body, got)
		}
		return
	}
	if len(got) != len(want) {
		t.Fatalf("readObject(%q) has %d members, want %d", body, len(got), len(want))
	}
	for k, w := range want {
		g, ok := got.get(k), got.has(k)
		if !ok || !bytes.Equal(g, w) {
			t.Fatalf("readObject(%q)[%q] = %q, want %q", body, k, g, w)
		}
		var ws string
		gs, isString := decodeString(g)
		if wantString := json.Unmarshal(w, &ws) == nil && len(w) > 0 && w[0] == '"'; isString != wantString || gs != ws {
			t.Fatalf("decodeString(%q) = %q, %v; want %q, %v", g, gs, isString, ws, wantString)
		}
	}
}

func TestReadObject(t *testing.T) {
	for _, body := range []string{
		`{}`, ` {"a":1} `, "\xef\xbb\xbf{\"a\":1}", `{"a":1,"a":2}`, `{"a\u0062":"c\nd","e":[1,{"f":"]"}],"g":{"h":"}"}}`,
		`{"a":"\ud83d\ude00 é \u00e9 \"q\" \\"}`, "{\"a\":\"\xff\"}", `{"a":1`, `{"a":1}x`, `[1]`, `"s"`, `null`,
		`{"a":tru}`, `{"a":01}`, `{"a" 1}`, `{,}`, `{"a":1,}`, `{"a":"b\"}`, ``, `{"a":[1,2,]}`,
	} {
		checkReadObject(t, []byte(body))
	}
	o := readObject([]byte(`{"s":"  text  ","n":-12,"f":1.5,"b":true,"o":{"x":"y"},"a":["p","q"],"nul":null}`))
	assert.Equal(t, "text", o.str("missing", "s"))
	assert.Equal(t, "-12", o.code("n"))
	assert.Empty(t, o.code("f"), "a fraction is no code")
	n, ok := o.integer("n")
	assert.True(t, ok)
	assert.Equal(t, -12, n)
	f, ok := o.number("f")
	assert.True(t, ok)
	assert.InDelta(t, 1.5, f, 0)
	v, ok := o.boolean("b")
	assert.True(t, ok && v)
	_, ok = o.boolean("nul")
	assert.False(t, ok, "null is no boolean")
	assert.Equal(t, "y", o.obj("o").str("x"))
	assert.Nil(t, o.obj("s"), "a string is no object")
	assert.Equal(t, []string{"p", "q"}, o.strs("a"))
	assert.Equal(t, "p", o.firstString("a"))
	key, value, ok := firstMember([]byte(`{"z":1,"a":2}`))
	assert.True(t, ok)
	assert.Equal(t, "z", key, "document order, not map order")
	assert.Equal(t, "1", string(value))
}

func TestReadObjectLeavesMembersInTheBody(t *testing.T) {
	body := []byte(`{"error":{"trace":"` + string(bytes.Repeat([]byte("at x.y(Z.java:1)\\n"), 4000)) + `"}}`)
	allocs := testing.AllocsPerRun(10, func() {
		if readObject(body).obj("error") == nil {
			t.Fatal("no error object")
		}
	})
	assert.LessOrEqual(t, allocs, 8.0, "the walk allocates its maps, not copies of the members")
}

func FuzzReadObject(f *testing.F) {
	for _, s := range []string{`{"a":1}`, `{"a":"\u00e9\n","b":[{"c":null}],"d":{"e":true}}`, `{"a":1`, `{"a":"x\"}`} {
		f.Add([]byte(s))
	}
	f.Fuzz(func(t *testing.T, body []byte) {
		checkReadObject(t, body)
	})
}

// Objects of more members than are searched one by one (jsonLinearMax),
// with repeated keys, plain and escaped, before and after the index is
// built, read as encoding/json reads them.
func TestReadObjectManyMembers(t *testing.T) {
	for _, n := range []int{jsonLinearMax - 1, jsonLinearMax, jsonLinearMax + 1, 3 * jsonLinearMax} {
		var b strings.Builder
		b.WriteString(`{"k0":"first"`)
		for i := 1; i < n; i++ {
			fmt.Fprintf(&b, `,"k%d":%d`, i, i)
		}
		fmt.Fprintf(&b, `,"k0":"last","\u006b1":"escaped","k%d":true}`, n-1)
		checkReadObject(t, []byte(b.String()))
		got := readObject([]byte(b.String()))
		assert.Equal(t, n, len(got))
		assert.Equal(t, `"last"`, string(got.get("k0")))
		assert.Equal(t, `"escaped"`, string(got.get("k1")))
		assert.Equal(t, "k0", got.keys()[0])
	}
}
