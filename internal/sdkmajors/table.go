// Package sdkmajors is the test harness that proves an SDK's errors are
// classified alike on every major version of the SDK: each test module
// (one per SDK major, under mappers/) drives the real SDK client against
// loopback servers replaying the SDK vendor's documented error responses
// from one shared table, through the real middleware, and checks the
// agent's error against the table's expectations. The table is the same
// for every major, so the majors are held to one classification.
package sdkmajors

import (
	"embed"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"time"
)

//go:embed testdata/*.json
var tables embed.FS

// Table is one SDK vendor's documented error responses.
type Table struct {
	// Vendor is upstream.vendor of every case ("stripe").
	Vendor string `json:"vendor"`
	// Header is sent with every reply, as the vendor does (its request
	// id header).
	Header map[string]string `json:"header"`
	// Cases are the replies and what each must become.
	Cases []Case `json:"cases"`
}

// Case is one documented error response and the error the agent must get
// for it.
type Case struct {
	Name string `json:"name"`
	// Method is the method of the SDK call that gets the reply: "GET" or
	// "POST". The tool call itself is a POST without an idempotency key.
	Method string `json:"method"`
	Status int    `json:"status"`
	// Header values may hold "{{now+30s}}": the Unix time 30 s from the
	// reply (a rate limit's reset).
	Header map[string]string `json:"header"`
	Body   string            `json:"body"`
	Want   Want              `json:"want"`
}

// Want is what the agent's error must say. Empty strings and zero numbers
// are checked too: a case that wants no field wants none.
type Want struct {
	Code           string `json:"code"`
	Retryable      bool   `json:"retryable"`
	RetryAfterMS   int64  `json:"retry_after_ms"`
	Field          string `json:"field"`
	UpstreamCode   string `json:"upstream_code"`
	UpstreamStatus int    `json:"upstream_status"`
	RequestID      string `json:"request_id"`
	// RetryAfterSlackMS is how far retry_after_ms may be off, for a delay
	// counted from the reply's clock; 0 for an exact one.
	RetryAfterSlackMS int64 `json:"retry_after_slack_ms"`
	// Details are members error.details must hold, with these values.
	Details map[string]string `json:"details"`
}

// Load returns the table of an SDK vendor ("stripe", "github",
// "anthropic", "openai").
func Load(vendor string) (Table, error) {
	b, err := tables.ReadFile("testdata/" + vendor + ".json")
	if err != nil {
		return Table{}, fmt.Errorf("sdkmajors: no table for %q: %w", vendor, err)
	}
	var t Table
	if err := json.Unmarshal(b, &t); err != nil {
		return Table{}, fmt.Errorf("sdkmajors: table %s: %w", vendor, err)
	}
	if len(t.Cases) == 0 {
		return Table{}, fmt.Errorf("sdkmajors: table %s has no cases", vendor)
	}
	return t, nil
}

// expand replaces "{{now+Ns}}" in a header value by the Unix time N
// seconds after now.
func expand(v string, now time.Time) string {
	const open, closing = "{{now+", "s}}"
	i := strings.Index(v, open)
	if i < 0 {
		return v
	}
	j := strings.Index(v[i:], closing)
	if j < 0 {
		return v
	}
	n, err := strconv.Atoi(v[i+len(open) : i+j])
	if err != nil {
		return v
	}
	return v[:i] + strconv.FormatInt(now.Add(time.Duration(n)*time.Second).Unix(), 10) + v[i+j+len(closing):]
}
