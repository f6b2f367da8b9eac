package toolmetrics

import (
	"context"

	"go.opentelemetry.io/otel/attribute"
)

// unmappedKey is what the toolerr.upstream.unmapped counter records of one
// response.
type unmappedKey struct {
	vendor string
	status int
	code   string
}

// Unknown is the vendor of an unmapped response no translator or handler
// named.
const Unknown = "unknown"

// Unmapped counts one downstream failure no mapping table explained:
// vendor (the empty name counts as [Unknown]), the upstream's HTTP status
// (0 when it had none: an SDK error), and the code it became.
func (s *Set) Unmapped(ctx context.Context, vendor string, status int, code string) {
	if vendor == "" {
		vendor = Unknown
	}
	s.unmapped.Add(ctx, 1, s.unmappedAttrs.options(unmappedKey{vendor, status, code}, unmappedSet)...)
}

// unmappedSet builds the attributes of one unmapped response.
func unmappedSet(k unmappedKey) attribute.Set {
	return attribute.NewSet(KeyVendor.String(k.vendor), KeyHTTPStatus.Int(k.status), KeyErrorType.String(k.code))
}
