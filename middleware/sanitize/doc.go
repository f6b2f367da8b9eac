// Package sanitize cleans untrusted text (vendor error bodies, panic values,
// Go error strings) before any of it reaches an agent, a log line or a span.
//
// [Sanitizer.Clean] runs one pipeline, in this order:
//
//  1. cap the input (default 64 KiB), dropping the word the cap cuts, which
//     may be the start of a secret no rule recognizes once cut, and the
//     groups of a number the cut runs through (the first digits of a card
//     number);
//  2. decode: UTF-16 and UTF-32 with a byte-order mark are decoded; NUL
//     bytes (NUL-interleaved ASCII is unmarked UTF-16) and invisible format
//     characters such as the zero-width space are removed; a text still
//     unreadable after that yields nothing; invalid UTF-8 is repaired, so
//     it never hides what follows it;
//  3. reduce an HTML document to one line: its title, else its first h1,
//     else its visible text ("upstream HTML error page: 522 Connection timed
//     out"), then the exception headline of a debug page, dropping scripts,
//     styles and server signatures, and keeping the first public URL of a
//     comment that points somewhere ("(status: https://status.example.com)");
//  4. redact secrets: PEM keys, URL userinfo and DSN passwords,
//     Authorization/Cookie/API-key header values, session cookie values
//     (also after their name in a dumped table's next cell), key=value
//     secrets and assignments, provider token formats (a live-credential
//     prefix such as "sk_live_" or "ghp_" whatever its body looks like),
//     and the exact values given to
//     [WithSecrets], each as a typed placeholder such as
//     "[REDACTED:github-token]"; before any stage that drops text, so that
//     no secret loses the context that identifies it;
//  5. redact payment data, always: Luhn-valid card numbers of a major
//     network's range and length as "[card ending 4242]", card security
//     codes after their key ("cvc=123") as
//     "[REDACTED:card-security-code]", mod-97-valid IBANs as
//     "[IBAN DE…3000]", and social security numbers after their label
//     ("SSN 078-05-1120") as "[REDACTED:ssn]"; with [WithPersonalData],
//     e-mail addresses and phone numbers become per-call tokens such as
//     "[email-1]" and "[phone-1]" (payment.go gives the rules);
//  6. strip stack traces of Go, Java, Python, Node, .NET, Ruby, PHP and Rust,
//     keeping the headline ("ValueError: bad input") and replacing the frames
//     with "[stack trace removed: N frames]", also inside JSON strings whose
//     newlines are escaped and in JSON trace arrays;
//  7. redact internal host names and private, loopback, link-local, CGNAT and
//     metadata addresses as "[internal-host]" and "[private-ip]", and the
//     AWS account id and principal name of an ARN as "[aws-account]" and
//     "[aws-principal]";
//  8. collapse whitespace to single spaces;
//  9. truncate at a rune boundary (default 2048 bytes).
//
// Secrets are redacted before truncation, so a secret is never cut in half
// and missed. Placeholders are stable, so cleaning clean text changes
// nothing: Clean(Clean(x)) == Clean(x).
//
// Most text holds no secret. The redaction stages first look for the cheap
// literal keywords their rules need and run only the rules whose keyword
// occurs, so ordinary prose costs little more than one pass over its bytes;
// the payment stage reads only the runs of digits, found 32 bytes at a time.
// A short line that no stage could change (ASCII words shorter than any
// token, single spaces, no quote, colon, '=', '@', bracket or dotted name,
// no configured secret or own host name; see plainProse) is returned as it
// is without running the pipeline: most vendor messages are such lines.
// A fuzz target checks that the pipeline returns every such line unchanged.
//
// The package imports nothing of toolerr: it is a text pipeline.
package sanitize
