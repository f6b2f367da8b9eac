package sanitize

import (
	"testing"

	"github.com/stretchr/testify/assert"
)

// frameCase is a text with a stack trace: frame must not survive Clean,
// head (the headline) must.
type frameCase struct{ name, in, frame, head string }

func checkFramesGone(t *testing.T, cases []frameCase) {
	t.Helper()
	s := New(WithHostname(""))
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			out, _ := s.Clean(c.in)
			assert.NotContains(t, out, c.frame, "in: %q", c.in)
			assert.Contains(t, out, c.head, "in: %q", c.in)
		})
	}
}

// TestAdversarialTracesStripped covers trace shapes the existing tests do
// not: Kotlin coroutines, Node "at async" and "new Promise", Go
// "created by … in goroutine", .NET AggregateException with "--->", and a
// Java trace inside a JSON string.
func TestAdversarialTracesStripped(t *testing.T) {
	checkFramesGone(t, []frameCase{
		{"kotlin", "Exception in thread \"main\" kotlinx.coroutines.JobCancellationException: Job was cancelled\n\tat kotlinx.coroutines.JobSupport.cancel(JobSupport.kt:1)\n\tat com.acme.AppKt$main$1.invokeSuspend(App.kt:12)",
			"App.kt:12", "Job was cancelled"},
		{"node async", "TypeError: x is undefined\n    at Object.<anonymous> (/app/index.js:3:5)\n    at async Promise.all (index 0)\n    at async handler (/app/h.js:10:3)",
			"/app/h.js", "TypeError: x is undefined"},
		{"go created by", "panic: boom\n\ngoroutine 7 [chan receive]:\ngithub.com/acme/pay.(*Client).Do(0xc000123)\n\t/go/pkg/mod/github.com/acme/pay@v1.2.3/client.go:88 +0x2a5\ncreated by github.com/acme/pay.Start in goroutine 1\n\t/go/pkg/mod/github.com/acme/pay@v1.2.3/start.go:20 +0x66",
			"start.go:20", "panic: boom"},
		{"dotnet aggregate", "Unhandled exception. System.AggregateException: One or more errors occurred. (boom)\n ---> System.Exception: boom\n   at Program.<Main>$(String[] args) in /src/Program.cs:line 1\n   --- End of inner exception stack trace ---\n   at System.Threading.Tasks.Task.Wait()",
			"/src/Program.cs", "System.AggregateException"},
		{"java in json", `{"error":"java.lang.IllegalStateException: boom\n\tat com.acme.A.run(A.java:10)\n\tat com.acme.B.main(B.java:5)"}`,
			"A.java:10", "java.lang.IllegalStateException: boom"},
	})
}
