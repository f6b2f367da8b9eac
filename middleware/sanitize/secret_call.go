package sanitize

// Secrets passed to a call as a quoted name and a quoted value:
// System.setProperty("DB_PASSWORD", "..."), os.Setenv("API_TOKEN", "..."),
// config.put("client_secret", "..."), headers.set("Authorization",
// "Bearer ..."), getEnvOrDefault("api_token", "..."). The rule is anchored
// at the quote and comma between the two (`",` or `',`), which prose
// rarely holds. A list of two words is as likely as a call, so the value
// must look like a credential (looksSecret) under a strong key, and
// random (looksRandom) under a weak one.

// matchCallPair records the secret value of the name/value pair whose
// name's closing quote is at s[i], followed by a comma.
func matchCallPair(s string, i int, out *spanList) {
	q := s[i]
	if q != '"' && q != '\'' || i+1 >= len(s) || s[i+1] != ',' {
		return
	}
	k := readKeyName(s, i+1)
	if k.n == 0 || k.start == 0 {
		return
	}
	open := k.start - 1 // the name's opening quote, maybe escaped
	if s[open] != q {
		return
	}
	if i > 0 && s[i-1] == '\\' && (open == 0 || s[open-1] != '\\') {
		return
	}
	vs := skipSpaces(s, i+2)
	if vs >= len(s) {
		return
	}
	qs, qe, ok := quotedValue(s, vs)
	if !ok {
		return
	}
	key := classifyRaw(s[k.start:k.end], k.norm(), true)
	if !matchClassValue(s, qs, qs, qe, true, key, out) && key.class == keyValue && looksSecret(s[qs:qe]) {
		out.add(qs, qe, key.repl, KindSecret)
	}
}
