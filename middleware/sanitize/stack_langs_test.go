package sanitize

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readLocalFixture returns the text of testdata/dir/name of this package.
func readLocalFixture(t testing.TB, dir, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", dir, name))
	require.NoError(t, err)
	return string(b)
}

// localFixtures returns the names of the files of testdata/dir of this package.
func localFixtures(t testing.TB, dir string) []string {
	t.Helper()
	files, err := filepath.Glob(filepath.Join("testdata", dir, "*"))
	require.NoError(t, err)
	require.NotEmpty(t, files, dir)
	names := make([]string, len(files))
	for i, f := range files {
		names[i] = filepath.Base(f)
	}
	return names
}

// newStackFixtureCases covers the trace shapes the stage missed before:
// Python exception groups, .NET lambda_method frames, ASP.NET's frames
// without "at", Windows paths with spaces, Rails' gem frames, PHP traces
// on one line and in Monolog lines, Tomcat's frames without "at", and
// traces as JSON values.
var newStackFixtureCases = []stackFixtureCase{
	{"python_exception_group.txt",
		[]string{"ExceptionGroup: unhandled errors in a TaskGroup (2 sub-exceptions)\nValueError: bad input\nConnectionError: db.internal:5432 refused\n"},
		[]string{"File \"", ".py", "asyncio.run", "^^^", "Exception Group Traceback", "+-+", "----", "| "}, 5},
	{"dotnet_lambda_windows.txt", []string{"Unhandled exception. System.InvalidOperationException: Sequence contains no elements"},
		[]string{"lambda_method", "ThrowHelper", `C:\Users`, "build agent", `D:\a`, ":line", "<Main>$"}, 5},
	{"aspnet_ysod_frames.txt", []string{"[InvalidOperationException: Order 42 could not be saved]"},
		[]string{"lambda_method", "+87", `C:\src`, "OrdersController.Save", "ActionMethodDispatcher"}, 4},
	{"go_windows.txt", []string{"panic: runtime error: index out of range [5] with length 3", "exit status 2"},
		[]string{"C:/", "Program Files", ".go:", "goroutine", "main.pick"}, 3},
	{"node_windows.txt", []string{`Error: ENOENT: no such file or directory, open 'C:\data\orders.json'`},
		[]string{"Program Files", "Acme Orders", "openSync", "node:fs", "loadOrders"}, 4},
	{"ruby_rails_log.txt", []string{"NoMethodError (undefined method `price' for nil):"},
		[]string{"actionpack (7.1.3)", "railties", "puma", ".rb:", "app/models"}, 6},
	{"php_inline.txt", []string{"PHP Fatal error: Uncaught RuntimeException: stock service down [stack trace removed: 3 frames]\n"},
		[]string{".php", "/var/www", "Stack trace", "#0", "{main}", "thrown in"}, 3},
	{"laravel_monolog.txt", []string{"production.ERROR: SQLSTATE[HY000] [2002] Connection refused", `"}`},
		[]string{"[stacktrace]", "#0 ", "{main}", "PDO->__construct", "MySqlConnector"}, 3},
	{"java_tomcat_bare.txt", []string{"java.lang.IllegalStateException: inventory service unavailable"},
		[]string{".java:", "InventoryClient", "reflect"}, 4},
	{"json_laravel.json", []string{`"message": "Order 42 could not be saved"`, `"exception": "RuntimeException"`,
		`"trace": "[stack trace removed: 3 frames]"` + "\n}"},
		[]string{"vendor/laravel", "callAction", "Kernel", "index.php"}, 3},
	{"json_rails_traces.json", []string{`"exception":"#<NoMethodError: undefined method ` + "`price'" + ` for nil>"`,
		`"traces":"[stack trace removed: 4 frames]"}`},
		[]string{"Application Trace", "Full Trace", ".rb:", "actionpack", "exception_object_id"}, 4},
	{"json_java_stacktrace_array.json", []string{`"message":"inventory service unavailable"`, `"requestId":"7f3a9c2e-1"`,
		`"stackTrace":"[stack trace removed: 4 frames]","path":"/orders"}`},
		[]string{".java:", "InventoryClient", "FrameworkServlet"}, 4},
	{"json_sentry_frames.json", []string{`"event_id":"fc6d8c0c43fc4630ad850ee518f1b9d0"`, `"type":"ValueError","value":"bad input"`,
		`"stacktrace":"[stack trace removed: 2 frames]"`},
		[]string{"abs_path", "sk_live_", "flask", "context_line"}, 2},
	{"json_node_stack_array.json", []string{`"message":"Cannot read properties of undefined (reading 'sku')"`,
		`"backtrace":"[stack trace removed: 3 frames]"}}`},
		[]string{".js:", "Layer.handle", "node_modules"}, 3},
}

func TestStripStackTracesNewShapes(t *testing.T) {
	for _, tc := range newStackFixtureCases {
		t.Run(tc.file, func(t *testing.T) {
			checkStackFixture(t, readLocalFixture(t, "stacks", tc.file), tc)
		})
	}
}

func TestStripStackTracesNewInline(t *testing.T) {
	cases := []struct {
		name, in, want string
		frames         int
	}{
		{"at lambda_method", "System.Exception: x\n   at lambda_method(Closure , Object )\n   at A.B.C() in C:\\src\\C.cs:line 4\n",
			"System.Exception: x\n[stack trace removed: 2 frames]\n", 2},
		{"ysod frame with source only", "[HttpException (0x80004005): boom]\n   Acme.Home.Index() in C:\\src\\Home.cs:15\n",
			"[HttpException (0x80004005): boom]\n[stack trace removed: 1 frame]\n", 1},
		{"ruby gem frame with its message", "actionpack (7.1.3) lib/x.rb:6:in `f': boom (RuntimeError)\n\tfrom app/y.rb:2:in `g'",
			"boom (RuntimeError)\n[stack trace removed: 2 frames]", 2},
		{"php inline with nothing after", "Stack trace: #0 {main}", "[stack trace removed: 1 frame]", 1},
		{"php inline keeps the text after it", "Uncaught Exception: boom in /x.php:3 Stack trace: #0 /y.php(4): f() #1 {main} thrown in /x.php on line 3 (request 7f3a)",
			"Uncaught Exception: boom [stack trace removed: 2 frames] (request 7f3a)", 2},
		{"php inline in a JSON string", `{"error":"boom Stack trace: #0 /y.php(4): f() #1 {main}","id":"req_1"}`,
			`{"error":"boom [stack trace removed: 2 frames]","id":"req_1"}`, 2},
		{"nested exception group", "  + Exception Group Traceback (most recent call last):\n  |   File \"<stdin>\", line 1, in <module>\n  | ExceptionGroup: outer (1 sub-exception)\n  +-+---------------- 1 ----------------\n    | ExceptionGroup: inner (1 sub-exception)\n    +-+---------------- 1 ----------------\n      | KeyError: 'k'\n      +------------------------------------",
			"ExceptionGroup: outer (1 sub-exception)\nExceptionGroup: inner (1 sub-exception)\nKeyError: 'k'\n[stack trace removed: 1 frame]", 1},
		{"ruby windows path with spaces", "C:/Program Files/Ruby/app.rb:3:in `f': boom (RuntimeError)",
			"boom (RuntimeError)\n[stack trace removed: 1 frame]", 1},
		{"java frames without at, kotlin and native", "x.Err: y\n\tcom.a.B.c(B.kt:3)\n\tjava.lang.Thread.sleep(Native Method)\n",
			"x.Err: y\n[stack trace removed: 2 frames]\n", 2},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var rep Report
			out := stripStackTraces(tc.in, &rep)
			assert.Equal(t, tc.want, out)
			assert.Equal(t, tc.frames, rep.Count(KindStackFrame))
			var rep2 Report
			assert.Equal(t, out, stripStackTraces(out, &rep2))
			assert.False(t, rep2.Changed())
		})
	}
}

// newTraceFreeTexts look like the new shapes but hold no trace; the stage
// must leave them as they are.
var newTraceFreeTexts = []string{
	"| name | value |\n|------|-------|\n| id   | 42    |",
	"+----+-------+\n| id | name  |\n+----+-------+\n|  1 | alice |\n+----+-------+",
	"actionpack (7.1.3) is installed; run bundle update to get 7.1.4",
	"rails (7.1.3) lib/ is where the code lives",
	"  see the manual (page 12)\n  call foo.bar(baz) first\n  then Math.max(a, b)",
	"lambda_method is generated by the expression compiler",
	"The PHP docs say Stack trace: #0 is the innermost frame.",
	"Our {main} branch is protected. Stack trace: not captured.",
	"C:/Program Files/Go is where Go installs itself",
	"   Version(4.8) of the docs covers it\n",
	"Exception Group Traceback is the header Python prints",
	"+ one more thing: the order ships tomorrow",
}

func TestStripStackTracesLeavesNewLookalikes(t *testing.T) {
	for _, in := range newTraceFreeTexts {
		var rep Report
		assert.Equal(t, in, stripStackTraces(in, &rep))
		assert.False(t, rep.Changed(), "%q: %v", in, rep)
	}
}

// TestNewStackFixturesIdempotent checks every new fixture: stripping the
// stripped text, and the collapsed stripped text, changes nothing.
func TestNewStackFixturesIdempotent(t *testing.T) {
	for _, name := range localFixtures(t, "stacks") {
		in := readLocalFixture(t, "stacks", name)
		var rep Report
		once := stripStackTraces(in, &rep)
		var rep2 Report
		assert.Equal(t, once, stripStackTraces(once, &rep2), name)
		line := collapseSpace(once)
		assert.Equal(t, line, stripStackTraces(line, &rep2), name)
		assert.False(t, rep2.Changed(), name)
	}
}

// TestNewStackFixturesThroughClean checks the new fixtures through the
// whole pipeline: one line, one trace, a fixed point.
func TestNewStackFixturesThroughClean(t *testing.T) {
	s := New(WithHostname(""))
	for _, name := range localFixtures(t, "stacks") {
		out, rep := s.Clean(readLocalFixture(t, "stacks", name))
		assert.NotContains(t, out, "\n", name)
		assert.Equal(t, 1, rep.Count(KindStackTrace), name)
		again, rep2 := s.Clean(out)
		assert.Equal(t, out, again, name)
		assert.False(t, rep2.Changed(), "%s: %v", name, rep2)
	}
}
