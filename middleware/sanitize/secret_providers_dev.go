package sanitize

// Token formats of code hosting, package registries and developer tools,
// from the providers' documentation:
//
//   - GitHub: "ghp_", "gho_", "ghu_", "ghs_", "ghr_" and 36 letters and
//     digits; fine-grained "github_pat_";
//   - GitLab: personal, deploy, runner, CI job, feed, incoming mail,
//     agent, OAuth application, pipeline trigger and SCIM tokens ("glpat-",
//     "gldt-", "glrt-", "glcbt-", "glft-", "glimt-", "glagent-", "gloas-",
//     "glptt-", "glsoat-", "glffct-"), routable ones with a ".<suffix>";
//     runner registration tokens "GR1348941";
//   - npm "npm_" and 36; PyPI upload tokens "pypi-AgEIcHlwaS5vcmc" (a
//     macaroon naming pypi.org); RubyGems "rubygems_" and 48 hex digits;
//     Clojars "CLOJARS_" and 60; NuGet "oy2" and 43; Docker Hub "dckr_pat_";
//   - JFrog Artifactory API keys "AKCp" and 69, reference tokens "cmVmd"
//     and 59;
//   - Atlassian API tokens "ATATT3"; Bitbucket app passwords "ATBB";
//   - Sourcegraph "sgp_"; Sentry "sntrys_eyJ" organization and "sntryu_"
//     user tokens; Grafana "glc_" cloud and "glsa_" service account
//     tokens, and legacy API keys that decode to {"k":" ("eyJrIjoi");
//   - Postman "PMAK-"; ReadMe "rdme_"; Linear "lin_api_", "lin_oauth_";
//     SonarQube "squ_", "sqp_", "sqa_" and 40 hex digits; CircleCI
//     "CCIPAT_"; Figma "figd_"; Harness "pat." and "sat."; Prefect "pnu_";
//     Infracost "ico-"; 42 intranet "s-s4t2ud-", "s-s4t2af-"; SettleMint
//     "sm_pat_", "sm_aat_", "sm_sat_"; Authress "sc_", "ext_", "scauth_",
//     "authress_" keys with an ".acc" account part.
func devTokens() []tokenFamily {
	gitlab := pre("glpat-", "gldt-", "glrt-", "glcbt-", "glft-", "glimt-", "glagent-", "gloas-", "glptt-", "glsoat-", "glffct-")
	return []tokenFamily{
		fam("github-token", pre("ghp_", "gho_", "ghu_", "ghs_", "ghr_"), atLeast(alphaAlnum, 36)),
		fam("github-token", pre("github_pat_"), atLeast(alphaWord, 22)),
		fam("gitlab-token", gitlab, atLeast(alphaURLDot, 20)),
		fam("gitlab-token", pre("GR1348941"), atLeast(alphaURL, 20)),
		fam("npm-token", pre("npm_"), atLeast(alphaAlnum, 36)),
		fam("pypi-token", pre("pypi-AgEIcHlwaS5vcmc"), atLeast(alphaURL, 50)),
		fam("rubygems-token", pre("rubygems_"), fixed(alphaLowerHex, 48)),
		fam("clojars-token", pre("CLOJARS_"), fixed(alphaAlnum, 60)),
		fam("nuget-key", pre("oy2"), fixed(alphaLowerNum, 43)).mixedCase(),
		fam("docker-token", pre("dckr_pat_", "dckr_oat_"), atLeast(alphaURL, 27)),
		fam("artifactory-key", pre("AKCp"), atLeast(alphaAlnum, 69)),
		fam("artifactory-token", pre("cmVmd"), atLeast(alphaAlnum, 59)),
		fam("atlassian-token", pre("ATATT3"), atLeast(alphaURLEq, 180)),
		fam("bitbucket-token", pre("ATBB"), atLeast(alphaAlnum, 32)).mixedCase(),
		fam("sourcegraph-token", pre("sgp_"), atLeast(alphaWord, 40)),
		fam("sentry-token", pre("sntrys_eyJ"), atLeast(alphaBase64Word, 60)),
		fam("sentry-token", pre("sntryu_"), fixed(alphaLowerHex, 64)),
		fam("grafana-token", pre("glc_"), atLeast(alphaBase64, 32)),
		fam("grafana-token", pre("glsa_"), fixed(alphaAlnum, 32), lit("_"), fixed(alphaHex, 8)),
		fam("grafana-key", pre("eyJrIjoi"), atLeast(alphaBase64, 50)),
		fam("postman-key", pre("PMAK-"), fixed(alphaHex, 24), lit("-"), fixed(alphaHex, 34)),
		fam("readme-key", pre("rdme_"), fixed(alphaLowerNum, 70)),
		fam("linear-key", pre("lin_api_", "lin_oauth_"), atLeast(alphaAlnum, 40)),
		fam("sonarqube-token", pre("squ_", "sqp_", "sqa_"), fixed(alphaLowerHex, 40)),
		fam("circleci-token", pre("CCIPAT_"), atLeast(alphaURL, 20)),
		fam("figma-token", pre("figd_"), atLeast(alphaURL, 30)),
		fam("harness-token", pre("pat.", "sat."), fixed(alphaURL, 22), lit("."), fixed(alphaAlnum, 24), lit("."), fixed(alphaAlnum, 20)),
		fam("prefect-key", pre("pnu_"), fixed(alphaAlnum, 36)),
		fam("infracost-token", pre("ico-"), fixed(alphaAlnum, 32)),
		fam("intra42-secret", pre("s-s4t2ud-", "s-s4t2af-"), fixed(alphaHex, 64)),
		fam("settlemint-token", pre("sm_pat_", "sm_aat_", "sm_sat_"), atLeast(alphaAlnum, 16)),
		fam("authress-key", pre("sc_", "ext_", "scauth_", "authress_"), between(alphaAlnum, 5, 30), lit("."),
			between(alphaAlnum, 4, 6), lit(".acc"), between(alphaURL, 11, 33), lit("."), between(alphaBase64Word, 30, 120)),
	}
}
