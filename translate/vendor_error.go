package translate

import (
	"strconv"
	"strings"
)

// maxVendorMessage bounds the vendor message a VendorError keeps.
const maxVendorMessage = 1024

// VendorError is the Go cause of an error a Set builds from a response: the
// vendor's own account of the failure. It is never rendered to the agent.
// It goes to logs (redacted by the middleware), and when the classifier had
// no message filter the middleware sanitizes Message into the error's
// detail.
type VendorError struct {
	Vendor  string
	Status  int
	Code    string
	Message string // raw vendor text, at most 1 KiB: untrusted
}

// Error returns "vendor status code: message" for logs.
func (e *VendorError) Error() string {
	var b strings.Builder
	b.WriteString(e.Vendor)
	if e.Vendor == "" {
		b.WriteString("upstream")
	}
	b.WriteByte(' ')
	b.WriteString(strconv.Itoa(e.Status))
	if e.Code != "" {
		b.WriteByte(' ')
		b.WriteString(e.Code)
	}
	if e.Message != "" {
		b.WriteString(": ")
		b.WriteString(e.Message)
	}
	return b.String()
}

// newVendorError bounds the vendor's text of an outcome.
func newVendorError(vendor string, status int, code, message string) *VendorError {
	return &VendorError{Vendor: cutText(vendor, 128), Status: status, Code: cutText(code, 128), Message: cutText(message, maxVendorMessage)}
}
