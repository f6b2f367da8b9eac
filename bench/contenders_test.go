package bench

import "testing"

// TestContendersAnswer checks that every contender of every scenario
// answers as the benchmarks expect, so that none of them wins by doing
// nothing. The benchmarks make the same checks before they time anything.
func TestContendersAnswer(t *testing.T) {
	for _, s := range scenarios {
		for _, c := range Contenders(s) {
			t.Run(s.String()+"/"+c, func(t *testing.T) {
				if err := Check(c, s); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
	for _, flaky := range []bool{false, true} {
		for _, c := range RetryContenders(flaky) {
			t.Run(retryName(flaky)+"/"+c, func(t *testing.T) {
				if err := CheckRetry(c, flaky); err != nil {
					t.Fatal(err)
				}
			})
		}
	}
}
