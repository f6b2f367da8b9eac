package sanitize

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestStripJSONTraces(t *testing.T) {
	cases := []struct {
		name, in, want string
		frames         int
	}{
		{"laravel frame objects",
			`{"message":"boom","exception":"RuntimeException","trace":[{"file":"/var/www/a.php","line":54,"function":"show","class":"App\\X","type":"->"},{"function":"call_user_func_array","class":"Y","type":"::"}]}`,
			`{"message":"boom","exception":"RuntimeException","trace":"[stack trace removed: 2 frames]"}`, 2},
		{"java strings, camelCase name",
			`{"error":"boom","stackTrace":["com.acme.Foo.bar(Foo.java:42)","java.lang.Thread.run(Thread.java:840)"],"id":"req_1"}`,
			`{"error":"boom","stackTrace":"[stack trace removed: 2 frames]","id":"req_1"}`, 2},
		{"node frame strings under stack",
			`{"stack":["    at f (/app/a.js:1:2)","    at async Promise.all (index 0)"]}`,
			`{"stack":"[stack trace removed: 2 frames]"}`, 2},
		{"python frame strings under traceback, one frame",
			`{"traceback":["  File \"/app/x.py\", line 3, in f\n    g()\n"]}`,
			`{"traceback":"[stack trace removed: 1 frame]"}`, 1},
		{"php and go frame strings, snake_case name",
			`{"stack_trace":["#0 /var/www/x.php(12): f()","#1 {main}"],"back-trace":["main.main()\n\t/app/main.go:12 +0x1d"]}`,
			`{"stack_trace":"[stack trace removed: 2 frames]","back-trace":"[stack trace removed: 1 frame]"}`, 3},
		{"rails groups count the full trace once",
			`{"traces":{"Application Trace":[{"id":0,"trace":"app/x.rb:5:in 'show'"}],"Framework Trace":[{"id":1,"trace":"actionpack (7.1.3) lib/y.rb:6:in 'send'"}],"Full Trace":[{"id":0,"trace":"app/x.rb:5:in 'show'"},{"id":1,"trace":"actionpack (7.1.3) lib/y.rb:6:in 'send'"}]}}`,
			`{"traces":"[stack trace removed: 2 frames]"}`, 2},
		{"sentry stacktrace object", `{"stacktrace":{"frames":[{"filename":"a.py","lineno":1,"function":"f","vars":{"password":"hunter2"}}],"registers":null}}`,
			`{"stacktrace":"[stack trace removed: 1 frame]"}`, 1},
		{"pretty printed with odd white space", "{\n\t\"Backtrace\" :\u00a0[\n\t\t\"app/x.rb:5:in `show'\" ,\r\n\t\t\"app/y.rb:6:in `call'\"\n\t]\n}",
			"{\n\t\"Backtrace\" :\u00a0\"[stack trace removed: 2 frames]\"\n}", 2},
		{"cut by the input cap", `{"error":"x","trace":[{"file":"/a.php","line":1},{"file":"/b.php","li`,
			`{"error":"x","trace":"[stack trace removed: 1 frame]"`, 1},
		{"escaped unicode in a frame", `{"trace":["app/caf\u00e9.rb:5:in 'show'"]}`, `{"trace":"[stack trace removed: 1 frame]"}`, 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var rep Report
			out := stripStackTraces(tc.in, &rep)
			assert.Equal(t, tc.want, out)
			assert.Equal(t, tc.frames, rep.Count(KindStackFrame))
			if json.Valid([]byte(tc.in)) {
				assert.True(t, json.Valid([]byte(out)), "valid JSON stays valid: %s", out)
			}
			var rep2 Report
			assert.Equal(t, out, stripStackTraces(out, &rep2))
			assert.Equal(t, collapseSpace(out), stripStackTraces(collapseSpace(out), &rep2))
			assert.False(t, rep2.Changed())
		})
	}
}

// jsonTraceFree are JSON texts whose trace-named members are not traces:
// ids, technology stacks, empty or mixed arrays, objects without frames,
// an array cut by the output cap, and frames under other names.
var jsonTraceFree = []string{
	`{"trace":"4bf92f3577b34da6a3ce929d0e0e4736","traceparent":"00-4bf92f3577b34da6a3ce929d0e0e4736-00f067aa0ba902b7-01"}`,
	`{"trace":{"id":"4bf92f35","sampled":true},"traces":[],"stack":["redis","postgres","go"]}`,
	`{"stack":{"frontend":["react"],"backend":["go"]},"Trace":[{"span_id":"00f067aa","service":"api"}]}`,
	`{"backtrace":["app/x.rb:5:in 'show'","not a frame"],"trace":[1,2,3],"stack":[{"name":"orders"}]}`,
	`{"frames":["app/x.rb:5:in 'show'"],"error":"order 42 not found","idempotency_key":"8e1f0b1c-5a4e-4f0e-9a57-3c2b1d0e9f8a"}`,
	`{"error":"x","stack": ["    at f (/app/a.js:1:2)", "not a fra…`,
	`{"msg":"the \"trace\": [\"app/x.rb:5:in 'f'\"] is quoted"}`,
	`"trace": "see the docs"`,
	`{"trace":["app/x.rb:5:in 'show'"` + strings.Repeat("[", 40) + `]}`,
	`{"trace":[{"file":"a.php","line":1}}`,
	`{"stack":"Error: boom"}`,
}

func TestStripJSONTracesLeavesOthers(t *testing.T) {
	for _, in := range jsonTraceFree {
		var rep Report
		assert.Equal(t, in, stripStackTraces(in, &rep))
		assert.False(t, rep.Changed(), "%s: %v", in, rep)
	}
}

func TestStripJSONTracesThroughClean(t *testing.T) {
	s := New(WithHostname(""))
	in := readLocalFixture(t, "stacks", "json_laravel.json")
	out, rep := s.Clean(in)
	assert.Equal(t, `{ "message": "Order 42 could not be saved", "exception": "RuntimeException", `+
		`"file": "/var/www/html/app/Http/Controllers/OrderController.php", "line": 41, "trace": "[stack trace removed: 3 frames]" }`, out)
	assert.Equal(t, 3, rep.Count(KindStackFrame))
	var v map[string]any
	require.NoError(t, json.Unmarshal([]byte(out), &v))
	assert.Equal(t, "[stack trace removed: 3 frames]", v["trace"])
}

func TestStripJSONTracesAllocations(t *testing.T) {
	body := secretsBody() // 64 KiB of JSON whose "trace" is a string
	var rep Report
	allocs := testing.AllocsPerRun(20, func() { _ = stripJSONTraces(body, &rep) })
	assert.Zero(t, allocs)
	assert.False(t, rep.Changed())
}

func TestJSONScanDepthBounded(t *testing.T) {
	deep := `{"trace":[{"file":"a.php","line":1,"x":` + strings.Repeat(`[`, 10000) + strings.Repeat(`]`, 10000) + `}]}`
	var rep Report
	out := stripStackTraces(deep, &rep)
	assert.Equal(t, deep, out, "too deep to read: left alone")
}
