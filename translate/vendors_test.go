package translate

import (
	"slices"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// builtinNamed returns the built-in gateway, vendor or generic translator
// named name ("stripe", "cloudflare", "oauth2"), nil when none is.
func builtinNamed(name string) Translator {
	for _, t := range slices.Concat(builtinGateways(), builtinVendors(), builtinGenerics()) {
		if t.Vendor() == name {
			return t
		}
	}
	return nil
}

// Every row of the built-in table reads responses; gateways and vendors
// are named, once each, and recognise responses of unknown host; vendors'
// host suffixes are lower case and claimed by one vendor only; only the
// OAuth generic is named.
func TestBuiltinRowsAreWellFormed(t *testing.T) {
	names := map[string]bool{}
	hosts := map[string]string{}
	for _, group := range [][]Translator{builtinGateways(), builtinVendors()} {
		for _, tr := range group {
			row := tr.(*Vendor)
			require.NotEmpty(t, row.Name)
			assert.False(t, names[row.Name], "%s twice", row.Name)
			names[row.Name] = true
			assert.NotNil(t, row.Recognize, row.Name)
			assert.NotNil(t, row.Parse, row.Name)
			for _, h := range row.HostNames {
				assert.Equal(t, strings.ToLower(h), h, row.Name)
				h = strings.TrimPrefix(h, ".")
				assert.Empty(t, hosts[h], "%s claimed by %s and %s", h, hosts[h], row.Name)
				hosts[h] = row.Name
			}
		}
	}
	assert.Len(t, builtinVendors(), 15)
	for _, tr := range builtinGenerics() {
		row := tr.(*Vendor)
		assert.NotNil(t, row.Parse)
		assert.Nil(t, row.Recognize)
		assert.Empty(t, row.HostNames)
		if row.Name != "" {
			assert.Equal(t, oauthVendor, row.Name)
		}
	}
	for _, name := range []string{"stripe", "aws", "cloudflare", "oauth2"} {
		assert.Equal(t, name, builtinNamed(name).Vendor())
	}
	assert.Nil(t, builtinNamed("nobody"))
}
