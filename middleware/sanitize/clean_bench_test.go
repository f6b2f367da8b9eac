package sanitize

import (
	"fmt"
	"strings"
	"testing"
)

// proseSentences are ordinary English sentences, with a few numbers,
// colons and other punctuation, but no secret, address or host name.
var proseSentences = []string{
	"The committee met on Tuesday to review the budget for the coming year.",
	"Attendance was lower than expected: only 42 of the 60 members came, which delayed the vote.",
	"After a long discussion, the chair proposed that the library keep its evening hours through the winter.",
	"Several residents wrote letters asking for better lighting along the river path.",
	"The report, which runs to 118 pages, compares three options and recommends the second one.",
	"In the spring, volunteers planted roughly 1,200 trees in the northern part of the park.",
	"Nobody could remember exactly when the old bridge was built, though most guesses fell between 1880 and 1910.",
	"Her argument was simple: if the town wants young families to stay, it needs a second school.",
	"The weather turned cold quickly, and by the end of the week the lake had frozen at its edges.",
	"A local baker offered to provide bread for the festival at no cost, provided someone picked it up before 7 o'clock.",
	"Critics pointed out that the plan would take at least five years to complete and might cost twice the estimate.",
	"Still, the mood in the room was hopeful; people seemed glad to be talking about the future again.",
	"The museum will reopen in March with a new exhibit on the history of the railway.",
	"Children from the primary school painted a mural showing the valley as it looked a century ago.",
	"When asked about the delay, the engineer said the ground was softer than the survey had suggested.",
	"Prices at the market rose by about 3.5 percent last year, mostly because of the long, dry summer.",
	"The choir practised twice a week and gave its first concert in the chapel on a rainy Sunday afternoon.",
	"He kept a notebook of the birds he saw each morning: robins, sparrows, now and then a heron.",
	"There is no easy answer to the question of parking, but the council agreed to study it further.",
	"By the time the meeting ended, it was dark outside and the streets were quiet.",
}

// proseText returns about n bytes of paragraphs of proseSentences.
func proseText(n int) string {
	var b strings.Builder
	for i := 0; b.Len() < n; i++ {
		b.WriteString(proseSentences[(i*7)%len(proseSentences)])
		if i%5 == 4 {
			b.WriteString("\n\n")
		} else {
			b.WriteByte(' ')
		}
	}
	return b.String()[:n]
}

// BenchmarkCleanProse compares Clean on 64 KiB of prose with
// strings.ToLower on the same text, and with Clean without the prefilter.
func BenchmarkCleanProse(b *testing.B) {
	text := proseText(64 << 10)
	run := func(name string, f func()) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				f()
			}
		})
	}
	s := New(WithHostname("build-host-7"))
	np := New(WithHostname("build-host-7"), withoutPrefilter())
	var sink string
	run("sanitizer", func() { sink, _ = s.Clean(text) })
	run("tolower", func() { sink = strings.ToLower(text) })
	run("no_prefilter", func() { sink, _ = np.Clean(text) })
	// The payment stage alone: on this prose, whose numbers are short,
	// and on the same prose without a digit, where it is one scan.
	noDigits := strings.Map(func(r rune) rune {
		if r >= '0' && r <= '9' {
			return 'n'
		}
		return r
	}, text)
	var rep Report
	run("payment_stage", func() { sink = s.payment.redact(text, &rep) })
	run("payment_stage_no_digits", func() { sink = s.payment.redact(noDigits, &rep) })
	_ = sink
}

// javaTrace is a Java stack trace of the kind an upstream service returns.
const javaTrace = `java.lang.IllegalStateException: connection pool exhausted
	at com.example.db.Pool.acquire(Pool.java:212)
	at com.example.db.Pool.withConnection(Pool.java:88)
	at com.example.orders.OrderRepository.find(OrderRepository.java:41)
	at com.example.orders.OrderService.get(OrderService.java:63)
	at com.example.web.OrderController.show(OrderController.java:30)
	at java.base/jdk.internal.reflect.DirectMethodHandleAccessor.invoke(DirectMethodHandleAccessor.java:103)
	at java.base/java.lang.reflect.Method.invoke(Method.java:580)
	at org.springframework.web.method.support.InvocableHandlerMethod.doInvoke(InvocableHandlerMethod.java:255)
	... 42 more
Caused by: java.net.SocketTimeoutException: Read timed out
	at java.base/sun.nio.ch.NioSocketImpl.timedFinishConnect(NioSocketImpl.java:546)
	at java.base/java.net.Socket.connect(Socket.java:751)
	... 12 more`

// secretsBody returns a 64 KiB JSON error body that holds a Java stack
// trace, prose and three secrets.
func secretsBody() string {
	var b strings.Builder
	b.WriteString(`{"error":{"code":"INTERNAL","message":"request failed",` + "\n")
	b.WriteString(`"trace":"` + strings.NewReplacer("\n", `\n`, "\t", `\t`).Replace(javaTrace) + `",` + "\n")
	b.WriteString(`"config":{"datasource":"postgres://orders:Xk29vLp0qZ@db.example.com:5432/orders",` + "\n")
	b.WriteString(`"headers":{"Authorization":"Bearer eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxMjM0NTY3ODkwIn0.SflKxwRJSMeKKF2QT4fwpMeJf36POk6yJV_adQssw5c"},` + "\n")
	b.WriteString(`"github":"ghp_R8nX2kQ7vT4mW9pL3sZ6yB1cD5fG0hJ8aE2u"},` + "\n")
	b.WriteString(`"log":[`)
	for i := 0; b.Len() < 64<<10-200; i++ {
		b.WriteString(`"` + proseSentences[i%len(proseSentences)] + `",` + "\n")
	}
	b.WriteString(`"end"]}}`)
	return b.String()
}

// BenchmarkCleanSecrets cleans a 64 KiB JSON body with a Java stack trace
// and three secrets.
func BenchmarkCleanSecrets(b *testing.B) {
	text := secretsBody()
	s := New(WithHostname("build-host-7"))
	if out, rep := s.Clean(text); rep.Count(KindSecret) != 3 {
		b.Fatalf("want 3 secrets, report %v: %.300s", rep, out)
	}
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		s.Clean(text)
	}
}

// BenchmarkCleanVendorMessage compares Clean on short vendor messages, the
// text a classified SDK error carries, with the whole pipeline (clean,
// without the plain-prose path), in one run.
func BenchmarkCleanVendorMessage(b *testing.B) {
	s := New(WithHostname("build-host-7"))
	for _, msg := range []string{"Rate exceeded", "The security token included in the request is invalid."} {
		for _, path := range []struct {
			name string
			f    func(string) (string, Report)
		}{{"clean", s.Clean}, {"pipeline", s.clean}} {
			b.Run(path.name+"/"+strings.ReplaceAll(msg[:min(len(msg), 20)], " ", "_"), func(b *testing.B) {
				b.ReportAllocs()
				for b.Loop() {
					if out, _ := path.f(msg); out != msg {
						b.Fatal(out)
					}
				}
			})
		}
	}
}

// digitsBody returns a 64 KiB JSON body of orders full of digits: ids,
// epoch milliseconds, timestamps, amounts, phone numbers, tracking numbers
// and UUIDs, with a card number in every 64th order (its own test card,
// Luhn-valid) and cards the number of them.
func digitsBody() (body string, cards int) {
	var b strings.Builder
	b.WriteString(`{"orders":[`)
	for i := 0; b.Len() < 64<<10-400; i++ {
		fmt.Fprintf(&b, `{"id":%d,"order":"ord_%016d","created_ms":%d,"at":"2026-03-%02dT09:%02d:00.123Z",`,
			100000+i, 4242424242424242+i, 1710403200000+int64(i)*997, 1+i%28, i%60)
		fmt.Fprintf(&b, `"amount":%d.%02d,"qty":%d,"phone":"+1 415 555 %04d","tracking":"94001118992231974%05d",`,
			i*37%10000, i%100, 1+i%9, i%10000, i)
		fmt.Fprintf(&b, `"uuid":"%08d-%04d-4%03d-8%03d-%012d"`, i, i%10000, i%1000, i%1000, int64(i)*7919)
		if i%64 == 0 {
			b.WriteString(`,"card":{"number":"4242424242424242","cvc":"123"}`)
			cards++
		}
		b.WriteString("},\n")
	}
	b.WriteString(`{"end":true}]}`)
	return b.String(), cards
}

// BenchmarkCleanDigitsJSON compares Clean on a 64 KiB JSON body full of
// digits with strings.ToLower on the same text, in one run.
func BenchmarkCleanDigitsJSON(b *testing.B) {
	text, cards := digitsBody()
	s := New(WithHostname("build-host-7"))
	if _, rep := s.Clean(text); rep.Count(KindPayment) != 2*cards {
		b.Fatalf("want %d cards and %d codes, report %v", cards, cards, rep)
	}
	var sink string
	for _, c := range []struct {
		name string
		f    func()
	}{
		{"sanitizer", func() { sink, _ = s.Clean(text) }},
		{"tolower", func() { sink = strings.ToLower(text) }},
		{"payment_stage", func() {
			var rep Report
			sink = s.payment.redact(text, &rep)
		}},
	} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(text)))
			b.ReportAllocs()
			for b.Loop() {
				c.f()
			}
		})
	}
	_ = sink
}
