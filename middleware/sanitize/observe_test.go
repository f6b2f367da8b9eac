package sanitize

import (
	"sync"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestObserved(t *testing.T) {
	base := New(WithHostname(""))
	var mu sync.Mutex
	var reports []Report
	s := base.Observed(func(r Report) {
		mu.Lock()
		reports = append(reports, r)
		mu.Unlock()
	})
	const secret = "token ghp_abcdefghijklmnopqrstuvwxyz0123456789 was refused"

	assert.Equal(t, base.CleanText(secret), s.CleanText(secret), "observing changes nothing cleaned")
	require.Len(t, reports, 1, "CleanText reports")
	assert.Equal(t, 1, reports[0].Count(KindSecret))

	_, rep := s.Clean(secret)
	require.Len(t, reports, 2, "Clean reports")
	assert.Equal(t, rep, reports[1], "the report Clean returns")

	s.Redact(secret)
	require.Len(t, reports, 3, "Redact reports")
	assert.Equal(t, 1, reports[2].Count(KindSecret))

	s.CleanText("nothing to remove here")
	s.Redact("nothing to remove here")
	assert.Len(t, reports, 3, "a clean text is not reported")

	base.CleanText(secret)
	assert.Len(t, reports, 3, "the sanitizer observed is unchanged")

	quietAgain := s.Observed(nil)
	quietAgain.CleanText(secret)
	assert.Len(t, reports, 3, "Observed(nil) tells no one")
}
