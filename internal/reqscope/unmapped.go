package reqscope

import (
	"context"
	"net/http"
)

// UnmappedResponse is a downstream response no mapping explained, as the
// code that read it hands it to the middleware ([ReportUnmapped]).
// Everything in it but Code is untrusted: the hook sanitizes what it
// keeps.
type UnmappedResponse struct {
	Vendor     string // the vendor it was attributed to, or ""
	VendorCode string // the vendor's own code, as read
	Status     int    // the upstream's HTTP status; 0 for none
	Code       string // the toolerr code it became
	Header     http.Header
	Body       []byte // the start of the body that was read
}

// ReportUnmapped hands u to the Unmapped hook of ctx's request scope and
// reports whether there was one to take it. The hook must not keep
// u.Header or u.Body past the call.
func ReportUnmapped(ctx context.Context, u UnmappedResponse) bool {
	s := of(ctx)
	if s == nil || s.rec.hooks == nil || s.rec.hooks.Unmapped == nil {
		return false
	}
	s.rec.hooks.Unmapped(ctx, u)
	return true
}
