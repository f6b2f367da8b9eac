package translate

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr"
	"github.com/toolerr/toolerr/classify"
)

// The agreement corpus (issue 14): error responses that public SDKs' tests
// and protocol test suites use, re-authored in testdata/sdkfixtures/<source>/
// as <case>.http (the response) and <case>.json (where it came from, the
// request, and the label: the code and retryability the SDK's own behaviour
// and the vendor's documentation call for, decided before classifying).
// TestAgreement measures how often the Set the SDK mappers use agrees.

// sdkCase is the .json of an agreement case.
type sdkCase struct {
	Source struct {
		Repo   string `json:"repo"`
		Path   string `json:"path"`
		Commit string `json:"commit"`
	} `json:"source"`
	Request struct {
		Method     string `json:"method"`
		Host       string `json:"host"`
		Vendor     string `json:"vendor"`
		Idempotent bool   `json:"idempotent"`
	} `json:"request"`
	// Now is the clock for epoch and HTTP-date delays, RFC 3339; absent
	// when the label does not depend on it.
	Now   string `json:"now"`
	Label struct {
		Code         string `json:"code"`
		Retryable    bool   `json:"retryable"`
		RetryAfterMS *int64 `json:"retry_after_ms"` // compared when present
		Why          string `json:"why"`
	} `json:"label"`
}

const (
	sdkFixtureDir     = "../testdata/sdkfixtures"
	disagreementsFile = "../testdata/sdkfixtures/DISAGREEMENTS.md"
)

// agreeFloor is how many cases of each source agreed when last measured
// (testdata/sdkfixtures/README.md); fewer is a regression.
var agreeFloor = map[string]int{
	"anthropic-sdk-python": 13,
	"go-github":            13,
	"go-jira":              10,
	"google-api-go-client": 9,
	"slack-go":             14,
	"smithy":               17,
	"stripe-go":            17,
}

// minCasesPerSource keeps the corpus from shrinking out of the measure.
const minCasesPerSource = 8

// agreementSet is the Set a case is classified with: translate.Default(),
// or, for a case with its own clock, the same built-in translators over a
// classifier with that clock.
func agreementSet(t *testing.T, now string) *Set {
	t.Helper()
	if now == "" {
		return Default()
	}
	at, err := time.Parse(time.RFC3339, now)
	require.NoError(t, err)
	s, err := NewSet(classify.New(nil, classify.WithClock(func() time.Time { return at })))
	require.NoError(t, err)
	return s
}

// sdkResult is one case's outcome.
type sdkResult struct {
	id, why, got, want string
	agrees             bool
}

func TestAgreement(t *testing.T) {
	paths, err := filepath.Glob(filepath.Join(sdkFixtureDir, "*", "*.http"))
	require.NoError(t, err)
	bySource := map[string][]sdkResult{}
	for _, p := range paths {
		base := strings.TrimSuffix(p, ".http")
		source := filepath.Base(filepath.Dir(p))
		r := runSDKCase(t, base)
		r.id = source + "/" + filepath.Base(base)
		bySource[source] = append(bySource[source], r)
	}
	sources := make([]string, 0, len(bySource))
	for s := range bySource {
		sources = append(sources, s)
	}
	slices.Sort(sources)
	require.ElementsMatch(t, sources, mapKeys(agreeFloor), "every source has a floor, every floor a source")

	listed := readDisagreements(t)
	total, agreed := 0, 0
	t.Logf("%-22s %5s %6s %7s", "source", "cases", "agree", "share")
	for _, s := range sources {
		n, a := len(bySource[s]), 0
		for _, r := range bySource[s] {
			if r.agrees {
				a++
			}
		}
		total, agreed = total+n, agreed+a
		t.Logf("%-22s %5d %6d %6.1f%%", s, n, a, 100*float64(a)/float64(n))
		assert.GreaterOrEqual(t, n, minCasesPerSource, "cases of %s", s)
		assert.GreaterOrEqual(t, a, agreeFloor[s], "agreement of %s fell below the measured figure", s)
	}
	t.Logf("%-22s %5d %6d %6.1f%%", "total", total, agreed, 100*float64(agreed)/float64(total))
	floor := 0
	for _, f := range agreeFloor {
		floor += f
	}
	assert.GreaterOrEqual(t, agreed, floor, "total agreement fell below the measured figure")

	for _, s := range sources {
		for _, r := range bySource[s] {
			if r.agrees {
				assert.NotContains(t, listed, r.id, "%s agrees now: take it out of DISAGREEMENTS.md and raise its source's floor", r.id)
				continue
			}
			t.Logf("disagrees %s: got %s, label %s (%s)", r.id, r.got, r.want, r.why)
			assert.Contains(t, listed, r.id, "%s disagrees and DISAGREEMENTS.md does not say why our answer is kept", r.id)
		}
	}
	for id := range listed {
		source, _, _ := strings.Cut(id, "/")
		found := slices.ContainsFunc(bySource[source], func(r sdkResult) bool { return r.id == id })
		assert.True(t, found, "DISAGREEMENTS.md lists %s, which is not a case", id)
	}
}

// runSDKCase classifies one case and compares it with its label.
func runSDKCase(t *testing.T, base string) sdkResult {
	t.Helper()
	spec, err := os.ReadFile(base + ".json")
	require.NoError(t, err, "every .http has a .json")
	var c sdkCase
	dec := json.NewDecoder(bytes.NewReader(spec))
	dec.DisallowUnknownFields()
	require.NoError(t, dec.Decode(&c), "%s.json", base)
	require.NotEmpty(t, c.Source.Repo, "%s: source.repo", base)
	require.NotEmpty(t, c.Source.Path, "%s: source.path", base)
	require.Regexp(t, `^[0-9a-f]{40}$`, c.Source.Commit, "%s: source.commit", base)
	require.NotEmpty(t, c.Label.Why, "%s: label.why", base)
	category, _, ok := toolerr.Default().Kind(c.Label.Code)
	require.True(t, ok, "%s: label.code %q is not a registered code", base, c.Label.Code)
	if c.Label.Retryable {
		require.Contains(t, []toolerr.Category{toolerr.CategoryRateLimit, toolerr.CategoryTransient}, category,
			"%s: a retryable label needs a retryable category", base)
	}

	resp, body := readFixtureResponse(t, base+".http")
	r := &Raw{
		Method: c.Request.Method, Host: c.Request.Host, Vendor: c.Request.Vendor, Idempotent: c.Request.Idempotent,
		Status: resp.StatusCode, Header: resp.Header, Body: body,
	}
	e := agreementSet(t, c.Now).Classify(context.Background(), r)
	require.NotNil(t, e, "%s: every case is an error", base)

	want := describeOutcome(c.Label.Code, c.Label.Retryable, c.Label.RetryAfterMS)
	delay := e.RetryAfter.Milliseconds()
	got := describeOutcome(e.Code, e.Retryable, &delay)
	agrees := e.Code == c.Label.Code && e.Retryable == c.Label.Retryable &&
		(c.Label.RetryAfterMS == nil || *c.Label.RetryAfterMS == delay)
	return sdkResult{why: c.Label.Why, got: got, want: want, agrees: agrees}
}

// describeOutcome writes code, retryability and delay for a log line.
func describeOutcome(code string, retryable bool, delayMS *int64) string {
	s := code
	if retryable {
		s += " retryable"
	}
	if delayMS != nil && *delayMS > 0 {
		s += " after " + (time.Duration(*delayMS) * time.Millisecond).String()
	}
	return s
}

// disagreementLine is an entry of DISAGREEMENTS.md: "- `source/case`: why".
var disagreementLine = regexp.MustCompile("^- `([^`]+)`: (.+)$")

// readDisagreements returns the listed cases and the reason each gives.
func readDisagreements(t *testing.T) map[string]string {
	t.Helper()
	f, err := os.Open(disagreementsFile)
	require.NoError(t, err)
	defer f.Close()
	listed := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		if m := disagreementLine.FindStringSubmatch(sc.Text()); m != nil {
			require.NotContains(t, listed, m[1], "%s listed twice", m[1])
			listed[m[1]] = m[2]
		}
	}
	require.NoError(t, sc.Err())
	return listed
}

func mapKeys(m map[string]int) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	return keys
}
