package nearest

import (
	"fmt"
	"slices"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/stretchr/testify/assert"
)

// tools is a tool list as an agent would see it.
var tools = []string{
	"search_orders", "search_customers", "get_order", "refund_order",
	"cancel_order", "list_products", "get_user", "set_user",
}

func TestNearestNames(t *testing.T) {
	routes := []string{"/tools/search_orders", "/tools/search_customers", "/tools/refund_order", "/orders/42", "/healthz", "/tools"}
	for _, tc := range []struct {
		name       string
		candidates []string
		max        int
		near       []string
		suggested  string
	}{
		{"search_order", tools, 0, []string{"search_orders"}, "search_orders"},
		{"SEARCH_ORDERS", tools, 0, []string{"search_orders"}, "search_orders"},
		{"searchOrders", tools, 0, []string{"search_orders"}, "search_orders"},
		{"search-orders", tools, 0, []string{"search_orders"}, "search_orders"},
		{"serach_orders", tools, 0, []string{"search_orders"}, "search_orders"}, // a transposition
		// By words, in another order: listed, not suggested.
		{"order_search", tools, 0, []string{"search_orders"}, ""},
		{"orderSearch", tools, 0, []string{"search_orders"}, ""},
		// Contained: a tool that grew a word, or lost one.
		{"refund", tools, 0, []string{"refund_order"}, ""},
		{"cancel", tools, 0, []string{"cancel_order"}, ""},
		{"search_orders_by_customer", tools, 0, []string{"search_customers", "search_orders"}, ""},
		{"search_orders_v2", tools, 0, []string{"search_orders"}, "search_orders"}, // two edits
		// One edit from two: both listed, the single best suggested.
		{"get_usr", tools, 0, []string{"get_user", "set_user"}, "get_user"},
		// Equally close: listed, none suggested.
		{"xet_user", tools, 0, []string{"get_user", "set_user"}, ""},
		// Every order word, closest first, at most max.
		{"orders", tools, 0, []string{"get_order", "cancel_order", "refund_order", "search_orders"}, ""},
		{"orders", tools, 2, []string{"get_order", "cancel_order"}, ""},
		// Unrelated or too short: nothing, never padding.
		{"weather", tools, 0, nil, ""},
		{"search_products", tools, 0, nil, ""}, // a shared first word is not enough
		{"x", tools, 0, nil, ""},
		{"ab", []string{"ac", "ab_c"}, 0, nil, ""},
		{"", tools, 0, nil, ""},
		{"search_order", nil, 0, nil, ""},
		// Paths: slashes separate words.
		{"/tools/search_order", routes, 0, []string{"/tools/search_orders"}, "/tools/search_orders"},
		{"/tool/search_orders", routes, 0, []string{"/tools/search_orders"}, "/tools/search_orders"},
		{"/tools/refund", routes, 0, []string{"/tools/refund_order", "/tools"}, ""},
		{"/search_orders", routes, 0, []string{"/tools/search_orders"}, ""},
		{"/api/tools/search_orders", routes, 0, []string{"/tools/search_orders"}, ""},
		{"/tools/frobnicate", routes, 0, nil, ""},
		// Duplicates once; case twins are ambiguous.
		{"search_order", []string{"search_orders", "search_orders"}, 0, []string{"search_orders"}, ""},
		{"foo", []string{"Foo", "FOO"}, 0, []string{"FOO", "Foo"}, ""},
	} {
		t.Run(fmt.Sprintf("%s/%d", tc.name, tc.max), func(t *testing.T) {
			near, suggested := Names(tc.name, tc.candidates, tc.max)
			assert.Equal(t, tc.near, near)
			assert.Equal(t, tc.suggested, suggested)
		})
	}
}

// TestNearestNamesSuggestsAsRepairs: suggested is the name argcheck's
// repairs would choose, and heads the list.
func TestNearestNamesSuggestsAsRepairs(t *testing.T) {
	for _, name := range []string{"search_order", "Get_User", "refund-order", "cancel_ordr", "get_usr", "xet_user", "orders", "zzz"} {
		want, _ := String(name, tools)
		near, suggested := Names(name, tools, 0)
		assert.Equal(t, want, suggested, name)
		if suggested != "" {
			assert.Equal(t, suggested, near[0], name)
		}
	}
}

// TestNearestNamesOrderFree: the result does not depend on the order of
// the candidates.
func TestNearestNamesOrderFree(t *testing.T) {
	reversed := slices.Clone(tools)
	slices.Reverse(reversed)
	for _, name := range []string{"orders", "xet_user", "get_usr", "order", "refund"} {
		n1, s1 := Names(name, tools, 0)
		n2, s2 := Names(name, reversed, 0)
		assert.Equal(t, n1, n2, name)
		assert.Equal(t, s1, s2, name)
	}
}

// TestNearestNamesHostile: huge names and candidates are never close, and
// only the first 1024 candidates are measured.
func TestNearestNamesHostile(t *testing.T) {
	huge := strings.Repeat("search_orders", 8<<10)
	near, suggested := Names(huge, tools, 0)
	assert.Empty(t, near)
	assert.Empty(t, suggested)

	near, _ = Names("search_order", []string{huge, huge[:257], "search_orders"}, 0)
	assert.Equal(t, []string{"search_orders"}, near, "candidates over 256 bytes are skipped")

	many := make([]string, 5000)
	for i := range many {
		many[i] = fmt.Sprintf("tool_%04d", i)
	}
	near, _ = Names("tool_0001", many, 0)
	assert.Len(t, near, 5)
	assert.Equal(t, "tool_0001", near[0])
	near, _ = Names("tool_49999", many, 0)
	assert.NotEmpty(t, near)
	for _, n := range near {
		assert.Less(t, n, "tool_1024", "only the first 1024 candidates are measured")
	}
	near, suggested = Names("TOOL-4999", many, 0)
	assert.Equal(t, "tool_4999", near[0], "equality but for case and separators looks at all")
	assert.Equal(t, "tool_4999", suggested)

	// Many words: compared by edit distance only.
	words := strings.Repeat("a_", 40) + "b"
	near, _ = Names(words, []string{words + "c", "a_b"}, 0)
	assert.Equal(t, []string{words + "c"}, near)
}

func TestNameWords(t *testing.T) {
	for _, tc := range []struct {
		in    string
		words []string
	}{
		{"search_orders", []string{"search", "orders"}},
		{"searchOrders", []string{"search", "orders"}},
		{"HTTPServer", []string{"httpserver"}},
		{"v2Orders", []string{"v2", "orders"}},
		{"/tools/{id}/refund", []string{"tools", "id", "refund"}},
		{"--", nil},
		{"Größe_kaufen", []string{"größe", "kaufen"}},
	} {
		words, letters := nameWords(tc.in)
		assert.Equal(t, tc.words, words, tc.in)
		n := 0
		for _, w := range tc.words {
			n += utf8.RuneCountInString(w)
		}
		assert.Equal(t, n, letters, tc.in)
	}
	_, letters := nameWords(strings.Repeat("a_", maxNameTokens+1))
	assert.Zero(t, letters, "too many words")
}

func TestHistogramLowerBound(t *testing.T) {
	for _, p := range [][2]string{{"search", "serach"}, {"order", "orders"}, {"abc", "xyz"}, {"kitten", "sitting"}, {"", "abc"}, {"ünï", "uni"}} {
		h := histogram(p[0])
		assert.LessOrEqual(t, h.lowerBound(histogram(p[1])), EditDistance(p[0], p[1]), p)
	}
}

func BenchmarkNearestNames(b *testing.B) {
	many := make([]string, 1024)
	for i := range many {
		many[i] = fmt.Sprintf("/tools/%s_%d", tools[i%len(tools)], i)
	}
	for _, bc := range []struct {
		name       string
		query      string
		candidates []string
	}{
		{"tools/near", "search_order", tools},
		{"tools/none", "weather_forecast", tools},
		{"1024routes/near", "/tools/search_orders_12", many},
		{"1024routes/none", "/tools/frobnicate_the_widget", many},
		{"huge", strings.Repeat("x", 1<<20), many},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				Names(bc.query, bc.candidates, 0)
			}
		})
	}
}

// FuzzNearestNames checks the promises of Names whatever the
// input: at most max names, each a candidate, listed once, the suggested
// one first and the one argcheck's repairs would choose (String), and the same
// result whatever the order of the candidates.
func FuzzNearestNames(f *testing.F) {
	f.Add("search_order", "search_orders\nsearch_customers\nget_order", 0)
	f.Add("order_search", "search_orders\norder_searches", 2)
	f.Add("/tools/refund", "/tools/refund_order\n/tools\n/orders/{id}", 5)
	f.Add("FOO", "foo\nFoo\nf_o_o", 1)
	f.Add("", "a\n\nb", -1)
	f.Fuzz(func(t *testing.T, name, list string, max int) {
		if len(list) > 1<<14 {
			return
		}
		candidates := strings.Split(list, "\n")
		near, suggested := Names(name, candidates, max)
		limit := max
		if limit <= 0 {
			limit = defaultNearestNames
		}
		if len(near) > limit {
			t.Fatalf("%d names, more than %d", len(near), limit)
		}
		seen := map[string]bool{}
		for _, n := range near {
			if !slices.Contains(candidates, n) || len(n) > 256 || n == "" {
				t.Fatalf("%q is not a candidate of at most 256 bytes", n)
			}
			if seen[n] {
				t.Fatalf("%q listed twice: %q", n, near)
			}
			seen[n] = true
		}
		if suggested != "" && (len(near) == 0 || near[0] != suggested) {
			t.Fatalf("suggested %q does not head %q", suggested, near)
		}
		var kept []string
		for _, c := range candidates {
			if c != "" && len(c) <= 256 {
				kept = append(kept, c)
			}
		}
		if want, _ := String(name, kept); want != suggested {
			t.Fatalf("suggested %q, argcheck's repairs %q", suggested, want)
		}
		if len(candidates) <= maxTypoCandidates {
			reversed := slices.Clone(candidates)
			slices.Reverse(reversed)
			n2, s2 := Names(name, reversed, max)
			if !slices.Equal(near, n2) || s2 != suggested {
				t.Fatalf("order matters: %q %q, reversed %q %q", near, suggested, n2, s2)
			}
		}
	})
}
