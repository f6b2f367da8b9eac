package sanitize

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// readStackFixture returns the text of testdata/stacks/name.
func readStackFixture(t testing.TB, name string) string {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "..", "testdata", "stacks", name))
	require.NoError(t, err)
	return string(b)
}

// stackCase is one trace and what stripping it must leave.
type stackCase struct {
	name     string
	in       string
	keep     []string // headlines that must survive
	gone     []string // frame and path text that must not
	frames   int
	noMarker bool // no placeholder: a trace without frames
}

// stackFixtureCase is a stack fixture, what of it must stay and go, and
// how many frames it has.
type stackFixtureCase struct {
	file   string
	keep   []string
	gone   []string
	frames int
}

// checkStackFixture strips in, the text of tc's fixture, and checks tc.
func checkStackFixture(t *testing.T, in string, tc stackFixtureCase) {
	t.Helper()
	var rep Report
	out := stripStackTraces(in, &rep)
	for _, k := range tc.keep {
		assert.Contains(t, out, k)
	}
	for _, g := range tc.gone {
		assert.NotContains(t, out, g)
	}
	assert.Equal(t, 1, strings.Count(out, stackPlaceholder), out)
	assert.Contains(t, out, framesPlaceholder(tc.frames))
	assert.Equal(t, 1, rep.Count(KindStackTrace))
	assert.Equal(t, tc.frames, rep.Count(KindStackFrame))
}

// stackFixtureCases covers one fixture per language and format.
var stackFixtureCases = []stackFixtureCase{
	{"go_panic.txt", []string{"panic: assignment to entry in nil map", "exit status 2"},
		[]string{"goroutine ", ".go:", "/app/", "+0x", "Register("}, 2},
	{"go_panic_nil_pointer.txt", []string{"panic: runtime error: invalid memory address or nil pointer dereference", "[signal SIGSEGV"},
		[]string{"goroutine ", ".go:", "/src/", "/usr/local/go", "created by", "ServeHTTP"}, 6},
	{"go_pkg_errors.txt", []string{"load config: open /etc/acme/config.yaml: no such file or directory"},
		[]string{"main.loadConfig", ".go:", "/app/", "runtime.goexit", "asm_amd64.s"}, 5},
	{"go_debug_stack.txt", []string{"recovered from panic: index out of range [3] with length 3"},
		[]string{"goroutine ", "debug.Stack", ".go:", "/app/", "panic({"}, 5},
	{"java_caused_by.txt", []string{`Exception in thread "main" java.lang.IllegalStateException: failed to load tool manifest`,
		"Caused by: java.io.FileNotFoundException: /opt/acme/manifest.json (No such file or directory)",
		"Suppressed: java.io.IOException: close failed"},
		[]string{".java:", "\tat ", "Native Method", "... 4 more", "ManifestLoader.load"}, 11},
	{"java_logback.txt", []string{"org.springframework.dao.DataAccessResourceFailureException: Unable to acquire JDBC Connection",
		"Caused by: java.sql.SQLTransientConnectionException: HikariPool-1"},
		[]string{".java:", "~[", "common frames omitted", "<generated>"}, 6},
	{"python_traceback.txt", []string{"ValueError: bad input"},
		[]string{"Traceback", `File "`, ".py", "line 42", "^^^^", "int(payload"}, 2},
	{"python_chained.txt", []string{"KeyError: 'orders:42'", "LookupError: no row for orders:42",
		"RuntimeError: order lookup failed", "During handling of the above exception",
		"The above exception was the direct cause"},
		[]string{"Traceback", `File "`, "/app/", "~~~~", "return db.load", `fetch("orders:42")`}, 5},
	{"node_typeerror.txt", []string{"TypeError: Cannot read properties of undefined (reading 'id')"},
		[]string{"    at ", ".js:", ".mjs:", "/app/", "node:internal", "<anonymous>", "Promise.all"}, 7},
	{"node_econnrefused.txt", []string{"Error: connect ECONNREFUSED 10.0.3.7:5432", "code: 'ECONNREFUSED'"},
		[]string{"TCPConnectWrap", "node:net"}, 1},
	{"dotnet_inner.txt", []string{"Unhandled exception. System.InvalidOperationException: Order 42 could not be saved",
		" ---> System.Data.SqlClient.SqlException (0x80131904): Timeout expired."},
		[]string{"   at ", ":line ", "line 42", `C:\build`, "/src/", "--- End of"}, 4},
	{"ruby_nomethod.txt", []string{"undefined method 'price' for nil (NoMethodError)"},
		[]string{".rb:", "/app/", "from ", "send_action", "<main>"}, 4},
	{"php_uncaught.txt", []string{"PHP Fatal error:  Uncaught InvalidArgumentException: Quantity must be positive"},
		[]string{".php", "/var/www", "Stack trace:", "#0 ", "{main}", "thrown in", "[internal function]"}, 5},
	{"rust_panic_backtrace.txt", []string{"thread 'main' panicked:", "called `Option::unwrap()` on a `None` value"},
		[]string{".rs:", "stack backtrace:", "/rustc/", "rust_begin_unwind", "RUST_BACKTRACE", "panicked at"}, 5},
	{"json_java.json", []string{`java.lang.NullPointerException: Cannot invoke \"String.length()\" because \"name\" is null`,
		`{"error":"internal","status":500,"trace":"`, `","path":"/api/users"}`},
		[]string{".java:", `\tat `, "UserController"}, 3},
	{"json_python.json", []string{"Order.DoesNotExist: Order matching query does not exist.", `{"detail":"`},
		[]string{"Traceback", `File \"`, ".py", "line 88", "getattr("}, 2},
	{"json_node.json", []string{"Error: upstream timeout after 30000ms", `"}`},
		[]string{"    at ", ".js:", "node:internal", "listOnTimeout"}, 3},
}

func TestStripStackTracesFixtures(t *testing.T) {
	for _, tc := range stackFixtureCases {
		t.Run(tc.file, func(t *testing.T) {
			checkStackFixture(t, readStackFixture(t, tc.file), tc)
		})
	}
}

// itoa formats n without strconv, to keep the table readable.
func itoa(n int) string {
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func TestStripStackTracesInline(t *testing.T) {
	cases := []stackCase{
		{name: "rust old format without backtrace", in: readStackFixture(t, "rust_panic_old.txt"),
			keep: []string{"thread 'tokio-runtime-worker' panicked at 'index out of bounds: the len is 3 but the index is 7'"},
			gone: []string{".rs:", "src/handlers", "RUST_BACKTRACE", "note:"}, noMarker: true},
		{name: "rust new format on one line", in: "thread 'main' panicked at src/main.rs:4:5: boom",
			keep: []string{"thread 'main' panicked: boom"}, gone: []string{".rs:"}, noMarker: true},
		{name: "java frames indented with spaces", in: "java.lang.RuntimeException: x\n    at a.b.C.d(C.java:1)\n    at a.b.C.e(C.java:2)",
			keep: []string{"java.lang.RuntimeException: x"}, gone: []string{".java:"}, frames: 2},
		{name: "dotnet frames without pdb", in: "System.Exception: boom\r\n   at Acme.Program.Run()\r\n   at Acme.Program.Main(String[] args)\r\n",
			keep: []string{"System.Exception: boom"}, gone: []string{"Acme.Program"}, frames: 2},
		{name: "ruby single line", in: "app.rb:2:in 'Integer#/': divided by 0 (ZeroDivisionError)",
			keep: []string{"divided by 0 (ZeroDivisionError)"}, gone: []string{".rb:"}, frames: 1},
		{name: "php frames in a JSON string", in: `{"error":"Call to undefined method","trace":"#0 \/var\/www\/app.php(10): f()\n#1 {main}"}`,
			keep: []string{`{"error":"Call to undefined method","trace":"`, `"}`}, gone: []string{"app.php", "{main}"}, frames: 2},
		{name: "escaped CRLF in a JSON string", in: `{"stack":"Error: x\r\n    at f (/app/a.js:1:2)\r\n    at g (/app/b.js:3:4)"}`,
			keep: []string{`{"stack":"Error: x\r\n`}, gone: []string{"/app/", ".js:"}, frames: 2},
		{name: "windows path with \\n inside a real-line frame", in: "System.Exception: x\n   at A.B() in C:\\src\\new\\B.cs:line 4\n",
			keep: []string{"System.Exception: x"}, gone: []string{"B.cs", `C:\src`}, frames: 1},
		{name: "go panic with re-panic", in: "panic: boom [recovered]\n\tpanic: boom\n\ngoroutine 1 [running]:\nmain.main()\n\t/app/main.go:5 +0x18\n",
			keep: []string{"panic: boom [recovered]", "\tpanic: boom"}, gone: []string{".go:", "main.main"}, frames: 1},
		{name: "python exception line after frames with nested source", in: "Traceback (most recent call last):\n  File \"<stdin>\", line 1, in <module>\nZeroDivisionError: division by zero",
			keep: []string{"ZeroDivisionError: division by zero"}, gone: []string{"<stdin>", "Traceback"}, frames: 1},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var rep Report
			out := stripStackTraces(tc.in, &rep)
			for _, k := range tc.keep {
				assert.Contains(t, out, k)
			}
			for _, g := range tc.gone {
				assert.NotContains(t, out, g)
			}
			assert.Equal(t, 1, rep.Count(KindStackTrace), out)
			assert.Equal(t, tc.frames, rep.Count(KindStackFrame), out)
			if tc.noMarker {
				assert.NotContains(t, out, stackPlaceholder)
			} else {
				assert.Contains(t, out, framesPlaceholder(tc.frames))
			}
		})
	}
}

// traceFreeTexts must pass through the stage unchanged.
var traceFreeTexts = []string{
	"",
	"The meeting is at 5 pm; look at the file and tell me why line 12 is wrong.",
	"File a ticket if the export fails.\nFile \"report.pdf\" was not found.",
	"Steps:\n  1: open the dashboard\n  2: click Export\n",
	"Please arrive\n    at 5:30 or\n    at noon (12:30)\n    at the latest.",
	"The queue is at capacity (retry later)\n\tat least three workers are busy",
	"Error #0 was reported by the client.\n# 1 heading\n#1 is the first issue",
	"See main.go:12 for details and app.rb:3 for the Ruby part, or x.js:1:2.",
	"Traceback (most recent call last):",
	"Stack trace:\nnot available",
	"goroutine leak suspected: 1200 goroutines [running] at peak",
	"thread 'main' is busy; no panic here",
	"The path C:\\new\\table is on disk\\nowhere; call me at\\n 5 pm",
	"Go to the store.\nmain.main\nthen come home.",
	"... 3 more items were skipped\n--- End of report ---",
	"from the start: we care about correctness",
	"note: run the tests again",
}

func TestStripStackTracesLeavesProse(t *testing.T) {
	for _, in := range traceFreeTexts {
		var rep Report
		out := stripStackTraces(in, &rep)
		assert.Equal(t, in, out)
		assert.False(t, rep.Changed(), "%q: %v", in, rep)
	}
}

func TestStripStackTracesProseDoesNotAllocate(t *testing.T) {
	prose := traceFreeProse(64 << 10)
	var rep Report
	allocs := testing.AllocsPerRun(20, func() { _ = stripStackTraces(prose, &rep) })
	assert.Zero(t, allocs)
	assert.False(t, rep.Changed())
}

func TestStripStackTracesIdempotent(t *testing.T) {
	files, err := filepath.Glob(filepath.Join("..", "..", "testdata", "stacks", "*"))
	require.NoError(t, err)
	require.NotEmpty(t, files)
	for _, f := range files {
		in := readStackFixture(t, filepath.Base(f))
		var rep Report
		once := stripStackTraces(in, &rep)
		var rep2 Report
		assert.Equal(t, once, stripStackTraces(once, &rep2), f)
		assert.False(t, rep2.Changed(), f)
		line := collapseSpace(once)
		assert.Equal(t, line, stripStackTraces(line, &rep2), f)
		assert.False(t, rep2.Changed(), f)
	}
}

func TestFixturesThroughClean(t *testing.T) {
	s := New(WithHostname(""))
	for _, dir := range []string{"stacks", "html"} {
		files, err := filepath.Glob(filepath.Join("..", "..", "testdata", dir, "*"))
		require.NoError(t, err)
		for _, f := range files {
			b, err := os.ReadFile(f)
			require.NoError(t, err)
			out, rep := s.Clean(string(b))
			assert.NotContains(t, out, "\n", f)
			assert.NotContains(t, out, "\t", f)
			assert.NotContains(t, out, "<", f)
			assert.NotEmpty(t, out, f)
			assert.Equal(t, out, strings.TrimSpace(out), f)
			if dir == "html" {
				assert.Equal(t, 1, rep.Count(KindHTML), f)
				assert.True(t, strings.HasPrefix(out, htmlPrefix), f)
			} else {
				assert.Equal(t, 1, rep.Count(KindStackTrace), f)
			}
			again, rep2 := s.Clean(out)
			assert.Equal(t, out, again, f)
			assert.False(t, rep2.Changed(), "%s: %v", f, rep2)
		}
	}
}

// traceFreeProse returns n bytes of English prose in paragraphs, with the
// words a trace detector must not trip on.
func traceFreeProse(n int) string {
	sentences := []string{
		"The deployment finished at 5 pm and the team looked at the file again.",
		"Line 12 is wrong because the value was read before it was written.",
		"File a ticket when the nightly export takes longer than an hour.",
		"We met at the office, then walked at a slow pace to the station.",
		"The error was not in main.go but in the configuration of the proxy.",
		"Stack traces are useful, but nobody wants to read forty frames of them.",
		"Caused by a late train, the meeting started twenty minutes after nine.",
		"From the start, the service answered every request within 200 ms.",
	}
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(sentences[i%len(sentences)])
		if i%5 == 4 {
			b.WriteString("\n\n")
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()[:n]
}

// framesPlaceholder is the placeholder of a trace of n frames.
func framesPlaceholder(n int) string {
	if n == 1 {
		return stackPlaceholder + "1 frame]"
	}
	return stackPlaceholder + itoa(n) + " frames]"
}
