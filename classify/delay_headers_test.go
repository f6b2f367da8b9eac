package classify_test

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"github.com/toolerr/toolerr/classify"
)

// headerDelayCase is one row of the header-family tests: headers to set,
// the cap, and the expected delay.
type headerDelayCase struct {
	name    string
	headers [][2]string
	max     time.Duration
	want    time.Duration
	ok      bool
}

// runHeaderDelayCases runs rows against one header-family reader, plus the
// nil-header case every reader must treat as absent.
func runHeaderDelayCases(t *testing.T, read func(http.Header, time.Time, time.Duration) (time.Duration, bool), cases []headerDelayCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h := http.Header{}
			for _, kv := range tc.headers {
				h.Set(kv[0], kv[1])
			}
			d, ok := read(h, delayNow, tc.max)
			require.Equal(t, tc.ok, ok)
			require.Equal(t, tc.want, d)
		})
	}
	d, ok := read(nil, delayNow, 0)
	assert.False(t, ok, "nil header")
	assert.Equal(t, time.Duration(0), d)
}

func TestRetryDelay(t *testing.T) {
	type hv = [2]string
	cases := []headerDelayCase{
		{name: "Retry-After seconds", headers: []hv{{"Retry-After", "120"}}, want: 120 * time.Second, ok: true},
		{name: "Retry-After date", headers: []hv{{"Retry-After", "Sun, 22 Nov 2026 10:00:30 GMT"}}, want: 30 * time.Second, ok: true},
		{name: "Retry-After-Ms alone", headers: []hv{{"Retry-After-Ms", "1500"}}, want: 1500 * time.Millisecond, ok: true},
		{name: "ms beats Retry-After", headers: []hv{{"Retry-After", "120"}, {"Retry-After-Ms", "1500"}}, want: 1500 * time.Millisecond, ok: true},
		{name: "junk ms is skipped", headers: []hv{{"Retry-After", "120"}, {"Retry-After-Ms", "soon"}}, want: 120 * time.Second, ok: true},
		{name: "negative ms is skipped", headers: []hv{{"Retry-After", "7"}, {"Retry-After-Ms", "-5"}}, want: 7 * time.Second, ok: true},
		{name: "zero ms wins", headers: []hv{{"Retry-After", "120"}, {"Retry-After-Ms", "0"}}, want: 0, ok: true},
		{name: "Azure header", headers: []hv{{"X-Ms-Retry-After-Ms", "250"}, {"Retry-After", "1"}}, want: 250 * time.Millisecond, ok: true},
		{name: "AWS header", headers: []hv{{"X-Amz-Retry-After", "900"}, {"Retry-After", "2"}}, want: 900 * time.Millisecond, ok: true},
		{name: "order Retry-After-Ms first", headers: []hv{{"X-Amz-Retry-After", "900"}, {"X-Ms-Retry-After-Ms", "250"}, {"Retry-After-Ms", "10"}}, want: 10 * time.Millisecond, ok: true},
		{name: "order Azure before AWS", headers: []hv{{"X-Amz-Retry-After", "900"}, {"X-Ms-Retry-After-Ms", "250"}}, want: 250 * time.Millisecond, ok: true},
		{name: "junk Azure falls to AWS", headers: []hv{{"X-Amz-Retry-After", "900"}, {"X-Ms-Retry-After-Ms", "1e3"}}, want: 900 * time.Millisecond, ok: true},
		{name: "lower-case names", headers: []hv{{"retry-after-ms", "42"}, {"retry-after", "9"}}, want: 42 * time.Millisecond, ok: true},
		{name: "capped", headers: []hv{{"Retry-After", "3600"}}, max: time.Minute, want: time.Minute, ok: true},
		{name: "ms capped", headers: []hv{{"Retry-After-Ms", "3600000"}}, max: time.Minute, want: time.Minute, ok: true},
		{name: "past date absent", headers: []hv{{"Retry-After", "Sun, 22 Nov 2026 09:00:00 GMT"}}},
		{name: "all junk", headers: []hv{{"Retry-After", "later"}, {"Retry-After-Ms", "x"}, {"X-Ms-Retry-After-Ms", ""}, {"X-Amz-Retry-After", "-1"}}},
		{name: "reset headers ignored", headers: []hv{{"X-RateLimit-Reset", "30"}, {"RateLimit-Reset", "30"}}},
		{name: "no headers"},
	}
	runHeaderDelayCases(t, classify.RetryDelay, cases)
}

func TestResetDelay(t *testing.T) {
	type hv = [2]string
	cases := []headerDelayCase{
		{name: "RateLimit-Reset", headers: []hv{{"RateLimit-Reset", "30"}}, want: 30 * time.Second, ok: true},
		{name: "X-RateLimit-Reset epoch", headers: []hv{{"X-RateLimit-Reset", delayUnixPlus(45)}}, want: 45 * time.Second, ok: true},
		{name: "X-RateLimit-Reset delta", headers: []hv{{"X-RateLimit-Reset", "12"}}, want: 12 * time.Second, ok: true},
		{name: "X-Rate-Limit-Reset", headers: []hv{{"X-Rate-Limit-Reset", "12"}}, want: 12 * time.Second, ok: true},
		{name: "X-Rate-Limit-Reset epoch", headers: []hv{{"X-Rate-Limit-Reset", delayUnixPlus(8)}}, want: 8 * time.Second, ok: true},
		{name: "X-RateLimit-Reset-After", headers: []hv{{"X-RateLimit-Reset-After", "1.25"}}, want: 1250 * time.Millisecond, ok: true},
		{name: "IETF first", headers: []hv{{"X-RateLimit-Reset", delayUnixPlus(60)}, {"RateLimit-Reset", "5"}}, want: 5 * time.Second, ok: true},
		{name: "X-RateLimit-Reset before X-Rate-Limit-Reset", headers: []hv{{"X-Rate-Limit-Reset", "9"}, {"X-RateLimit-Reset", "4"}}, want: 4 * time.Second, ok: true},
		{name: "X-Rate-Limit-Reset before Reset-After", headers: []hv{{"X-RateLimit-Reset-After", "2"}, {"X-Rate-Limit-Reset", "3"}}, want: 3 * time.Second, ok: true},
		{name: "past epoch skipped", headers: []hv{{"X-RateLimit-Reset", delayUnixPlus(-100)}, {"X-RateLimit-Reset-After", "2.5"}}, want: 2500 * time.Millisecond, ok: true},
		{name: "junk IETF skipped", headers: []hv{{"RateLimit-Reset", "soon"}, {"X-RateLimit-Reset", "7"}}, want: 7 * time.Second, ok: true},
		{name: "1e11 skipped", headers: []hv{{"X-RateLimit-Reset", "100000000000"}, {"X-RateLimit-Reset-After", "1"}}, want: time.Second, ok: true},
		{name: "RateLimit-Reset is delta not epoch", headers: []hv{{"RateLimit-Reset", "100"}}, want: 100 * time.Second, ok: true},
		{name: "lower-case names", headers: []hv{{"x-ratelimit-reset", "6"}}, want: 6 * time.Second, ok: true},
		{name: "capped", headers: []hv{{"X-RateLimit-Reset", delayUnixPlus(3600)}}, max: time.Minute, want: time.Minute, ok: true},
		{name: "only past epoch", headers: []hv{{"X-RateLimit-Reset", delayUnixPlus(-1)}}},
		{name: "retry headers ignored", headers: []hv{{"Retry-After", "30"}, {"Retry-After-Ms", "30"}}},
		{name: "all junk", headers: []hv{{"RateLimit-Reset", "-1"}, {"X-RateLimit-Reset", "x"}, {"X-Rate-Limit-Reset", "1e3"}, {"X-RateLimit-Reset-After", "NaN"}}},
		{name: "no headers"},
	}
	runHeaderDelayCases(t, classify.ResetDelay, cases)
}
