// Package leakprobe holds the values the sink tests plant in the text a
// tool or a vendor sends toolerr, and finds them in what toolerr wrote:
// the agent's body, a log record, a span, a metric, a stored idempotent
// response. Every sink test of the repository plants the same values, so
// a new kind of secret is added to all of them by one entry of [Probes].
//
// The card, IBAN and personal-id entries are added by issue 27's payment
// stage, together with their masking in the sanitizer.
package leakprobe

import (
	"bytes"
	"strings"
)

// Probe is one planted value and the fragments of it that no sink may
// hold: a fragment is enough to rebuild or recognize the value.
type Probe struct {
	// Name says what the value is, for failure messages.
	Name string
	// Value is the text planted.
	Value string
	// Marks are the fragments searched for in what a sink wrote.
	Marks []string
}

// Probes returns the planted values, a new slice on each call.
func Probes() []Probe {
	return []Probe{
		// Stripe's documented format of a live secret key.
		{Name: "stripe live key", Value: "sk_live_4eC39HqLyjWDarjtT1zdp7dc", Marks: []string{"4eC39HqLyjWDarjtT1zdp7dc", "4eC39HqLyjWD"}},
		// A GitHub personal access token: ghp_ and 36 characters.
		{Name: "github token", Value: "ghp_R4nd0mT0kenV4lueF0rFuzz1ngAbCdEf0123", Marks: []string{"R4nd0mT0kenV4lueF0rFuzz1ngAbCdEf0123", "R4nd0mT0ken"}},
		// A card number as a payment vendor echoes it (Stripe's test
		// Visa), grouped and contiguous: no sink may keep its digits
		// past the last four.
		// Names and values are short: the sentence stays under the 200
		// bytes a plain-text body's detail is cut to, so that the first
		// answer and its replay from the (redacted) store read alike.
		{Name: "card", Value: "4242 4242 4242 4242", Marks: []string{"4242 4242 4242 4242", "4242424242424242", "424242424242"}},
		// An IBAN (the registry's example for Germany) and a US SSN.
		{Name: "iban", Value: "DE89370400440532013000", Marks: []string{"DE89370400440532013000", "370400440532"}},
		{Name: "ssn", Value: "SSN 078-05-1120", Marks: []string{"078-05-1120"}},
	}
}

// Sentence returns every probe's value in one line of prose, as a vendor's
// error message or a handler's error string would carry them.
func Sentence() string {
	var b strings.Builder
	b.WriteString("request failed")
	for _, p := range Probes() {
		b.WriteString("; ")
		b.WriteString(p.Name)
		b.WriteString(" ")
		b.WriteString(p.Value)
	}
	return b.String()
}

// Find returns the name of the first probe a fragment of which is in
// written, and the fragment; both are "" when written holds none.
func Find(written []byte) (name, mark string) {
	for _, p := range Probes() {
		for _, m := range p.Marks {
			if bytes.Contains(written, []byte(m)) {
				return p.Name, m
			}
		}
	}
	return "", ""
}
