package sdkpath

import "testing"

func TestUnder(t *testing.T) {
	for _, tc := range []struct {
		pkg, module string
		want        bool
	}{
		{"github.com/stripe/stripe-go", StripeGo, true},
		{"github.com/stripe/stripe-go/v85", StripeGo, true},
		{"github.com/stripe/stripe-go/v82/client", StripeGo, true},
		{"google.golang.org/api/googleapi", GoogleAPI, true},
		{"github.com/stripe/stripe-gone", StripeGo, false},
		{"github.com/stripe", StripeGo, false},
		{"", StripeGo, false},
		{"example.com/github.com/stripe/stripe-go", StripeGo, false},
	} {
		if got := Under(tc.pkg, tc.module); got != tc.want {
			t.Errorf("Under(%q, %q) = %v", tc.pkg, tc.module, got)
		}
	}
}
