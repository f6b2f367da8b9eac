package bench

import (
	"net/http"
	"slices"
	"testing"
	"time"
)

// Batches: each round of an interleaved benchmark runs this many calls of
// each contender in turn, timing each batch, so machine noise falls on all
// contenders alike.
const (
	httpBatch  = 32
	retryBatch = 8
)

var scenarios = []Scenario{Pass1KiB, Pass1MiB, Validation, ValidationFresh, Nginx502}

// interleaved runs the contenders' batches in turn, once per round, each
// round starting one contender further (so no contender always follows
// the same one), and reports:
//
//   - "<name>-ns/call": the median over the rounds of the contender's batch
//     time, per call;
//   - the ratio of two contenders' medians, the first contender's over
//     each other's ("<first>/<name>"), or with over set, each other's over
//     the first's ("<name>/<first>");
//   - the same ratio of their total times ("<first>/<name>-total").
//
// Medians, so that a batch the scheduler preempted (this machine is
// shared) weighs one round, not the result; a GC cycle falls on few
// batches, so the medians leave most of its cost out, which the totals
// (like ns/op) include. run(i) makes one call of contender i. The round's
// own ns/op is suppressed: it is the sum of every contender's batch.
func interleaved(b *testing.B, names []string, batch int, over bool, run func(i int), extra func(rounds int)) {
	b.Helper()
	spent := make([][]float64, len(names)) // spent[i][round], ns per batch
	round := 0
	for b.Loop() {
		for k := range names {
			i := (round + k) % len(names)
			t0 := time.Now()
			for range batch {
				run(i)
			}
			spent[i] = append(spent[i], float64(time.Since(t0).Nanoseconds()))
		}
		round++
	}
	b.ReportMetric(0, "ns/op")
	med := make([]float64, len(names))
	for i, name := range names {
		med[i] = median(spent[i])
		b.ReportMetric(med[i]/float64(batch), name+"-ns/call")
	}
	for i, name := range names[1:] {
		a, z := sum(spent[0]), sum(spent[i+1])
		if over {
			b.ReportMetric(med[i+1]/med[0], name+"/"+names[0])
			b.ReportMetric(z/a, name+"/"+names[0]+"-total")
		} else {
			b.ReportMetric(med[0]/med[i+1], names[0]+"/"+name)
			b.ReportMetric(a/z, names[0]+"/"+name+"-total")
		}
	}
	if extra != nil {
		extra(round)
	}
}

// sum returns the sum of xs.
func sum(xs []float64) float64 {
	t := 0.0
	for _, x := range xs {
		t += x
	}
	return t
}

// median returns the median of xs, sorting a copy.
func median(xs []float64) float64 {
	s := slices.Clone(xs)
	slices.Sort(s)
	n := len(s)
	if n == 0 {
		return 0
	}
	if n%2 == 1 {
		return s[n/2]
	}
	return (s[n/2-1] + s[n/2]) / 2
}

// BenchmarkInterleaved compares the contenders of each scenario in one
// timed loop, batch after batch. The ratios are toolerr's time over each
// peer's (HTTP), or each client's time over the plain client's (retry).
func BenchmarkInterleaved(b *testing.B) {
	for _, s := range scenarios {
		b.Run("scenario="+s.String(), func(b *testing.B) {
			names := Contenders(s)
			hs := make([]http.Handler, len(names))
			ws := make([]*Writer, len(names))
			for i, c := range names {
				if err := Check(c, s); err != nil {
					b.Fatal(err)
				}
				hs[i], ws[i] = Handler(c, s), NewWriter()
			}
			req := NewRequest()
			interleaved(b, names, httpBatch, false, func(i int) {
				ws[i].Reset()
				clear(req.Header) // a new request's headers: middlewares stamp ids in them
				hs[i].ServeHTTP(ws[i], req)
			}, nil)
			for i, w := range ws {
				if w.Status == 0 || w.N == 0 {
					b.Fatalf("%s wrote nothing", names[i])
				}
			}
		})
	}
	for _, flaky := range []bool{false, true} {
		b.Run("server="+retryName(flaky), func(b *testing.B) {
			// The plain client first: the ratios are each client over it.
			names := RetryContenders(flaky)
			srvs := make([]*Server, len(names))
			cls := make([]*http.Client, len(names))
			oks := make([]int, len(names))
			for i, c := range names {
				if err := CheckRetry(c, flaky); err != nil {
					b.Fatal(err)
				}
				srvs[i], cls[i] = NewServer(flaky), NewClient(c)
				defer srvs[i].Close()
				defer cls[i].CloseIdleConnections()
			}
			interleaved(b, names, retryBatch, true, func(i int) {
				ok, err := Get(cls[i], srvs[i].URL)
				if err != nil {
					b.Fatal(err)
				}
				if ok {
					oks[i]++
				}
			}, func(rounds int) {
				calls := float64(rounds * retryBatch)
				for i, name := range names {
					b.ReportMetric(float64(srvs[i].Requests())/calls, name+"-attempts/call")
					if flaky {
						b.ReportMetric(float64(oks[i])/calls, name+"-ok/call")
					}
				}
			})
		})
	}
}

// retryName names the retry scenarios.
func retryName(flaky bool) string {
	if flaky {
		return "retry_503_half"
	}
	return "retry_200"
}

// BenchmarkServe runs each contender of each scenario on its own, for
// benchstat's ns/op, B/op and allocs/op (run with -benchmem).
func BenchmarkServe(b *testing.B) {
	for _, s := range scenarios {
		for _, c := range Contenders(s) {
			b.Run("scenario="+s.String()+"/contender="+c, func(b *testing.B) {
				if err := Check(c, s); err != nil {
					b.Fatal(err)
				}
				h, w, req := Handler(c, s), NewWriter(), NewRequest()
				for b.Loop() {
					w.Reset()
					clear(req.Header) // a new request's headers: middlewares stamp ids in them
					h.ServeHTTP(w, req)
				}
				if w.Status == 0 || w.N == 0 {
					b.Fatal("wrote nothing")
				}
			})
		}
	}
}

// BenchmarkRetry runs each retry contender on its own against a server of
// its own, healthy or flaky, reporting attempts per call.
func BenchmarkRetry(b *testing.B) {
	for _, flaky := range []bool{false, true} {
		for _, c := range RetryContenders(flaky) {
			b.Run("server="+retryName(flaky)+"/client="+c, func(b *testing.B) {
				if err := CheckRetry(c, flaky); err != nil {
					b.Fatal(err)
				}
				srv, cl := NewServer(flaky), NewClient(c)
				defer srv.Close()
				defer cl.CloseIdleConnections()
				calls, oks := 0, 0
				for b.Loop() {
					ok, err := Get(cl, srv.URL)
					if err != nil {
						b.Fatal(err)
					}
					calls++
					if ok {
						oks++
					}
				}
				b.ReportMetric(float64(srv.Requests())/float64(calls), "attempts/call")
				if flaky {
					b.ReportMetric(float64(oks)/float64(calls), "ok/call")
				}
			})
		}
	}
}
