package toolerrmcpgo

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"testing"
)

// FuzzRecoveredPanic: the error WithRecovery makes of a panic is read
// back exactly, whatever the tool's name and the panic's text; any other
// text is read only when it is that error's text for the call's tool; an
// error that wraps another never is.
func FuzzRecoveredPanic(f *testing.F) {
	f.Add("refund_order", "assignment to entry in nil map", "panic recovered in refund_order tool handler: x")
	f.Add("a tool handler: b", "c", "panic recovered in a tool handler: b tool handler: c")
	f.Add("", "", "panic recovered in  tool handler: ")
	f.Add("x", "y", "panic recovered in x tool handler:")
	f.Fuzz(func(t *testing.T, tool, value, msg string) {
		made := fmt.Errorf("panic recovered in %s tool handler: %v", tool, value) // as server.WithRecovery makes it
		got, ok := recoveredPanic(made, tool)
		if !ok || got != value {
			t.Fatalf("WithRecovery's error for %q with %q read as %q, %v", tool, value, got, ok)
		}
		if _, ok := recoveredPanic(fmt.Errorf("wrapped: %w", made), tool); ok {
			t.Fatal("a wrapping error read as WithRecovery's")
		}
		if _, ok := recoveredPanic(errors.Join(made), tool); ok {
			t.Fatal("a joined error read as WithRecovery's")
		}
		if v, ok := recoveredPanic(errors.New(msg), tool); ok && msg != "panic recovered in "+tool+" tool handler: "+v {
			t.Fatalf("%q read as WithRecovery's error for %q with value %q", msg, tool, v)
		}
	})
}

// accessorMessages are the messages mcp-go's argument accessors make for
// the argument key, item i of it (i >= 0) and a Go type.
func accessorMessages(key string, i int, goType string) []string {
	if i >= 0 {
		return []string{
			fmt.Sprintf("item %d in argument %q is not a %s", i, key, goType),
			fmt.Sprintf("item %d in argument %q is not an %s", i, key, goType),
			fmt.Sprintf("item %d in argument %q cannot be converted to %s", i, key, goType),
		}
	}
	return []string{
		fmt.Sprintf("required argument %q not found", key),
		fmt.Sprintf("argument %q is not a %s", key, goType),
		fmt.Sprintf("argument %q is not an %s", key, goType),
		fmt.Sprintf("argument %q cannot be converted to %s", key, goType),
		fmt.Sprintf("argument %q is not a %s slice", key, goType),
		fmt.Sprintf("argument %q is not an %s slice", key, goType),
	}
}

// goTypeOf is the Go type name of a JSON type, as the messages say it.
func goTypeOf(jsonType string) string {
	for g, j := range goTypes {
		if j == jsonType {
			return g
		}
	}
	return ""
}

// FuzzParseArgumentError: every message of mcp-go's argument accessors
// reads back to its key and item, whatever the key; any text that reads
// as one is exactly such a message; the field is the JSON pointer of the
// key, and of the item.
func FuzzParseArgumentError(f *testing.F) {
	f.Add("order_id", 0, "string", `required argument "order_id" not found`)
	f.Add("a/b~c", 3, "int", `item 3 in argument "a/b~c" is not an int`)
	f.Add("qty", -1, "float64", `argument "qty" is not a float64 slice`)
	f.Add("\"\\\n", -1, "bool", `argument "\"" cannot be converted to bool`)
	f.Add("k", 12, "string", `item 012 in argument "k" is not a string`)
	f.Fuzz(func(t *testing.T, key string, item int, goType, msg string) {
		if _, known := goTypes[goType]; known {
			item = max(item, -1)
			for _, m := range accessorMessages(key, item, goType) {
				p, ok := parseArgumentError(m)
				if !ok || p.key != key || p.item != item && !(item < 0 && p.item == -1) {
					t.Fatalf("%q read as %+v, %v", m, p, ok)
				}
			}
		}
		p, ok := parseArgumentError(msg)
		if !ok {
			return
		}
		goType = goTypeOf(p.want)
		if p.want == "array" {
			goType = goTypeOf(p.items)
		}
		if !slices.Contains(accessorMessages(p.key, p.item, goType), msg) {
			t.Fatalf("%q read as %+v, which no accessor says so", msg, p)
		}
		tokens := strings.Split(strings.TrimPrefix(p.field(), "/"), "/")
		key = strings.ReplaceAll(strings.ReplaceAll(tokens[0], "~1", "/"), "~0", "~")
		if key != p.key || len(tokens) != 1+min(p.item+1, 1) {
			t.Fatalf("%q: field %q", msg, p.field())
		}
	})
}
