package unmapped

// Promises of docs/unmapped.md, checked here, each with the sentence of
// the page that makes it.

import (
	"net/http"
	"testing"
	"time"

	"github.com/stretchr/testify/assert"

	"github.com/toolerr/toolerr/internal/docpage"
)

const page = "../../docs/unmapped.md"

func TestPageDefaults(t *testing.T) {
	docpage.Says(t, page,
		"| `WithPairInterval(d)` | 1 minute |",
		"| `WithRate(n)` | 10 a second |",
		"| `WithCapacity(n)` | 64 |",
		"| `WithBodyBytes(n)` | 512 |",
		"At most 256 vendor and status pairs are remembered",
		"At most 64 KiB of a body is read, and 1 KiB of each other text",
		"sanitized, at most 64 bytes", "sanitized, at most 128 bytes", "sanitized and at most 256 bytes")
	assert.Equal(t, time.Minute, DefaultPairInterval)
	assert.Equal(t, 10, DefaultRate)
	assert.Equal(t, 64, DefaultCapacity)
	assert.Equal(t, 512, DefaultBodyBytes)
	assert.Equal(t, 256, MaxPairs)
	assert.Equal(t, 64<<10, MaxRead)
	assert.Equal(t, 1<<10, maxFieldRead)
	assert.Equal(t, []int{64, 128, 256}, []int{maxVendorKey, maxVendorCode, maxHeader})
	s := New()
	assert.Equal(t, DefaultBodyBytes, s.fields.bodyBytes)
	assert.Equal(t, DefaultCapacity, cap(s.recent.buf))
	assert.Equal(t, DefaultPairInterval, s.limit.interval)
	assert.Equal(t, float64(DefaultRate), s.limit.rate)
	assert.Equal(t, MaxPairs, cap(s.limit.slots))
}

func TestPageHeaderLists(t *testing.T) {
	docpage.Says(t, page,
		"`Content-Type`, `Content-Length`, `Retry-After`, `Server`, `Via`, `Date`, `CF-Ray`, `X-Cache`, and the vendors' request ids "+
			"(`X-Request-Id`, `Request-Id`, `X-Amzn-RequestId`, `X-Amz-Request-Id`, `X-GitHub-Request-Id`, `x-ms-request-id`).",
		"`Authorization`, `Proxy-Authorization`, `Cookie`, `Set-Cookie` and `WWW-Authenticate` or `Proxy-Authenticate`, even when `WithHeaders` names them.")
	var want []string
	for _, n := range defaultHeaders {
		want = append(want, http.CanonicalHeaderKey(n))
	}
	assert.Equal(t, want, allowList(nil), "the default list, as the page gives it")
	assert.Len(t, want, 14)
	assert.Equal(t, want, allowList(credentialHeaders), "no credential header is added")
}

func TestPageHandler(t *testing.T) {
	docpage.Says(t, page,
		"It answers `GET` and `HEAD` (405 otherwise), with `Cache-Control: no-store` and `X-Content-Type-Options: nosniff`.",
		"Mount it behind the service's own authentication",
		"Each sample is one Warn record, `toolerr: unmapped response sample`")
	assert.Equal(t, "toolerr: unmapped response sample", logMessage)
}
