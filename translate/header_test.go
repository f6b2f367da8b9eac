package translate

import (
	"net/textproto"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// Every header name the translators read with canonheader.Value is canonical,
// so that canonheader.Value(h, name) is h.Get(name): the literal names in the
// package's source, and the names of the AWS headers read in loops.
func TestHeaderValueNamesCanonical(t *testing.T) {
	files, err := filepath.Glob("*.go")
	require.NoError(t, err)
	call := regexp.MustCompile(`canonheader\.Value\([^,]+, "([^"]+)"\)`)
	found := 0
	for _, f := range files {
		if strings.HasSuffix(f, "_test.go") {
			continue
		}
		src, err := os.ReadFile(f)
		require.NoError(t, err)
		for _, m := range call.FindAllStringSubmatch(string(src), -1) {
			found++
			assert.Equal(t, textproto.CanonicalMIMEHeaderKey(m[1]), m[1], f)
		}
	}
	assert.Greater(t, found, 50)
	for _, n := range []string{"X-Amzn-Requestid", "X-Amz-Request-Id", "X-Amz-Id-2", "X-Amzn-Errortype", "X-Amz-Apigw-Id"} {
		assert.Equal(t, textproto.CanonicalMIMEHeaderKey(n), n)
	}
}
