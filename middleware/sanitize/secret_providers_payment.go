package sanitize

// Token formats of payment, commerce and shipping providers, from the
// providers' documentation:
//
//   - Stripe secret and restricted keys "sk_live_", "sk_test_",
//     "sk_prod_", "rk_live_", "rk_test_", "rk_prod_"; webhook signing
//     secrets "whsec_" (publishable "pk_" keys are public and stay);
//   - Square access tokens "sq0atp-" and "EAAA", application secrets
//     "sq0csp-";
//   - Shopify "shpat_", "shpca_", "shppa_" access tokens and "shpss_"
//     shared secrets, each with 32 hex digits;
//   - Flutterwave "FLWSECK_TEST-", "FLWSECK-", "FLWPUBK_TEST-", "FLWPUBK-"
//     keys ending "-X", and "FLWSECK_TEST-" encryption keys of 12;
//   - Duffel "duffel_test_", "duffel_live_"; EasyPost "EZAK", "EZTK";
//     Shippo "shippo_live_", "shippo_test_" and 40 hex digits; Razorpay
//     "rzp_live_", "rzp_test_";
//   - Plaid access tokens "access-sandbox-", "access-development-",
//     "access-production-" and a UUID;
//   - Braintree access tokens "access_token$production$",
//     "access_token$sandbox$".
func paymentTokens() []tokenFamily {
	return []tokenFamily{
		fam("stripe-key", pre("sk_live_", "sk_test_", "sk_prod_", "rk_live_", "rk_test_", "rk_prod_"), atLeast(alphaAlnum, 16)),
		fam("stripe-webhook-secret", pre("whsec_"), atLeast(alphaAlnum, 16)),
		fam("square-token", pre("sq0atp-"), between(alphaURL, 22, 60)),
		fam("square-token", pre("EAAA"), between(alphaURL, 40, 80)).mixedCase(),
		fam("square-secret", pre("sq0csp-"), fixed(alphaURL, 43)),
		fam("shopify-token", pre("shpat_", "shpca_", "shppa_", "shpss_"), fixed(alphaHex, 32)),
		fam("flutterwave-key", pre("FLWSECK_TEST-", "FLWSECK-", "FLWPUBK_TEST-", "FLWPUBK-"), fixed(alphaAlnum, 32), lit("-X")),
		fam("flutterwave-key", pre("FLWSECK_TEST-"), fixed(alphaAlnum, 12)),
		fam("duffel-token", pre("duffel_test_", "duffel_live_"), fixed(alphaURLEq, 43)),
		fam("easypost-key", pre("EZAK", "EZTK"), fixed(alphaAlnum, 54)),
		fam("shippo-token", pre("shippo_live_", "shippo_test_"), fixed(alphaHex, 40)),
		fam("razorpay-key", pre("rzp_live_", "rzp_test_"), between(alphaAlnum, 14, 32)).mixedCase(),
		fam("plaid-token", pre("access-sandbox-", "access-development-", "access-production-"), fixed(alphaHexDash, 36)),
		fam("braintree-token", pre("access_token$production$", "access_token$sandbox$"), atLeast(alphaAlnumDollar, 40)),
	}
}
