package sanitize

import "testing"

func BenchmarkStripStackTracesProse(b *testing.B) {
	prose := traceFreeProse(64 << 10)
	b.SetBytes(int64(len(prose)))
	b.ReportAllocs()
	var rep Report
	for b.Loop() {
		_ = stripStackTraces(prose, &rep)
	}
}

func BenchmarkStripStackTracesJava(b *testing.B) {
	trace := readStackFixture(b, "java_caused_by.txt")
	b.SetBytes(int64(len(trace)))
	b.ReportAllocs()
	for b.Loop() {
		var rep Report
		_ = stripStackTraces(trace, &rep)
	}
}
