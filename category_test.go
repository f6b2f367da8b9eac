package toolerr

import (
	"encoding/json"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestCategoryJSON(t *testing.T) {
	require.Len(t, Categories(), 12)
	for _, c := range Categories() {
		b, err := json.Marshal(struct{ C Category }{c})
		require.NoError(t, err)
		var back struct{ C Category }
		require.NoError(t, json.Unmarshal(b, &back))
		assert.Equal(t, c, back.C)
		assert.Equal(t, c == CategoryRateLimit || c == CategoryTransient || c == CategoryInternal, c.CanRetry(), c)
	}
	for _, bad := range []string{`""`, `"Validation"`, `"oops"`, `1`} {
		var v struct{ C Category }
		assert.Error(t, json.Unmarshal([]byte(`{"C":`+bad+`}`), &v), bad)
	}
	_, err := json.Marshal(struct{ C Category }{"oops"})
	assert.Error(t, err, "an invalid category does not encode")
}

func TestSeverityJSON(t *testing.T) {
	require.Len(t, Severities(), 4)
	for _, s := range Severities() {
		b, err := json.Marshal(s)
		require.NoError(t, err)
		var back Severity
		require.NoError(t, json.Unmarshal(b, &back))
		assert.Equal(t, s, back)
	}
	var s Severity
	assert.Error(t, json.Unmarshal([]byte(`"critical"`), &s))
	_, err := json.Marshal(Severity("critical"))
	assert.Error(t, err)
}
