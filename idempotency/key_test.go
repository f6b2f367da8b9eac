package idempotency_test

import (
	"encoding/hex"
	"errors"
	"fmt"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"github.com/toolerr/toolerr/idempotency"
)

// ExampleKey derives the key of a tool call; the spelling of the arguments
// does not matter, only their canonical JSON form.
func ExampleKey() {
	k1, err := idempotency.Key("sess_42", "create_invoice", []byte(`{"amount": 10.0, "currency": "EUR"}`))
	if err != nil {
		panic(err)
	}
	k2, _ := idempotency.Key("sess_42", "create_invoice", []byte(`{"currency":"EUR","amount":1e1}`))
	fmt.Println(k1)
	fmt.Println(k1 == k2)

	_, err = idempotency.Key("sess_42", "create_invoice", []byte(`{"amount": 10,}`))
	fmt.Println(err != nil)
	// Output:
	// c8e3c1fbc25118f29b75acba99eab8da3371fc225444662d3093929ef5f8cf65
	// true
	// true
}

// TestKeySame checks that argument spellings with the same canonical form
// give the same key.
func TestKeySame(t *testing.T) {
	tests := []struct{ name, a, b string }{
		{"member order", `{"a":1,"b":2}`, `{"b":2,"a":1}`},
		{"whitespace", `{"a":[1,2]}`, " {\n\t\"a\" : [ 1 , 2 ] }\r\n"},
		{"1 vs 1.0", `{"n":1}`, `{"n":1.0}`},
		{"exponent", `{"n":100}`, `{"n":1e2}`},
		{"negative zero", `{"n":0}`, `{"n":-0.0}`},
		{"1e0 and 10e-1", `{"n":1e0}`, `{"n":10e-1}`},
		{"big integer spellings", `{"n":1152921504606846977}`, `{"n":11529215046068469770e-1}`},
		{"escapes", `{"s":"é\n/"}`, `{"s":"\u00e9\u000a\/"}`},
		{"astral escape", `{"s":"😀"}`, `{"s":"\ud83d\ude00"}`},
		{"nested order", `{"x":{"b":[{"d":1,"c":2}],"a":0}}`, `{"x":{"a":0,"b":[{"c":2,"d":1}]}}`},
		{"scalar", `"a"`, ` "a" `},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ka, err := idempotency.Key("s", "t", []byte(tt.a))
			require.NoError(t, err)
			kb, err := idempotency.Key("s", "t", []byte(tt.b))
			require.NoError(t, err)
			assert.Equal(t, ka, kb)
			assert.Len(t, ka, 64)
			raw, err := hex.DecodeString(ka)
			require.NoError(t, err)
			assert.Equal(t, ka, hex.EncodeToString(raw), "not lower-case hex")
		})
	}
}

// TestKeyDifferent checks that a change of session, tool or argument value
// changes the key, including when the parts' boundaries move.
func TestKeyDifferent(t *testing.T) {
	type call struct{ session, tool, args string }
	tests := []struct {
		name string
		a, b call
	}{
		{"session", call{"s1", "t", `{}`}, call{"s2", "t", `{}`}},
		{"tool", call{"s", "t1", `{}`}, call{"s", "t2", `{}`}},
		{"args value", call{"s", "t", `{"a":1}`}, call{"s", "t", `{"a":2}`}},
		{"args type", call{"s", "t", `{"a":1}`}, call{"s", "t", `{"a":"1"}`}},
		{"array order", call{"s", "t", `[1,2]`}, call{"s", "t", `[2,1]`}},
		{"null vs empty", call{"s", "t", `null`}, call{"s", "t", `{}`}},
		{"session/tool boundary", call{"a", "bc", `{}`}, call{"ab", "c", `{}`}},
		{"tool/args boundary", call{"s", "t1", `2`}, call{"s", "t", `12`}},
		{"NUL in session", call{"a\x00b", "c", `{}`}, call{"a", "b\x00c", `{}`}},
		{"swapped", call{"x", "y", `{}`}, call{"y", "x", `{}`}},
		{"precision", call{"s", "t", `0.1`}, call{"s", "t", `0.10000000000000002`}},
		{"2^60 neighbours", call{"s", "t", `{"to_account":1152921504606846977}`}, call{"s", "t", `{"to_account":1152921504606846976}`}},
		{"2^53 neighbours", call{"s", "t", `9007199254740993`}, call{"s", "t", `9007199254740992`}},
		{"beyond 17 digits", call{"s", "t", `0.10000000000000000001`}, call{"s", "t", `0.1`}},
		{"beyond a double", call{"s", "t", `1e400`}, call{"s", "t", `1e401`}},
		{"below a double", call{"s", "t", `1e-400`}, call{"s", "t", `0`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ka, errA := idempotency.Key(tt.a.session, tt.a.tool, []byte(tt.a.args))
			kb, errB := idempotency.Key(tt.b.session, tt.b.tool, []byte(tt.b.args))
			require.NoError(t, errA)
			require.NoError(t, errB)
			assert.NotEqual(t, ka, kb)
		})
	}
}

// TestKeyErrors checks that invalid arguments and empty parts are errors.
func TestKeyErrors(t *testing.T) {
	tests := []struct {
		name, session, tool, args string
		invalidJSON               bool
	}{
		{"empty session", "", "t", `{}`, false},
		{"empty tool", "s", "", `{}`, false},
		{"empty args", "s", "t", ``, true},
		{"trailing comma", "s", "t", `{"a":1,}`, true},
		{"duplicate member", "s", "t", `{"a":1,"a":1}`, true},
		{"exponent beyond the bound", "s", "t", `{"a":1e1000000000}`, true},
		{"lone surrogate", "s", "t", `{"a":"\udead"}`, true},
		{"two values", "s", "t", `{} {}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			k, err := idempotency.Key(tt.session, tt.tool, []byte(tt.args))
			require.Error(t, err)
			assert.Empty(t, k)
			assert.Equal(t, tt.invalidJSON, errors.Is(err, idempotency.ErrInvalidJSON))
		})
	}
}

// TestKeyGolden pins the key encoding: a change here changes every key
// agents derive, which breaks deduplication across a deployment. The
// expected values were computed independently (Python hashlib) as SHA-256
// over the 8-byte big-endian length and bytes of
// "toolerr/idempotency-key/v1", the session, the tool and the canonical
// arguments, in that order. The transfers are the reported break: accounts
// 2^60+1 and 2^60, which an RFC 8785 canonicalizer rounding through doubles
// gives one key.
func TestKeyGolden(t *testing.T) {
	tests := []struct{ session, tool, args, want string }{
		{"sess_42", "create_invoice", `{"currency":"EUR","amount":10}`, "c8e3c1fbc25118f29b75acba99eab8da3371fc225444662d3093929ef5f8cf65"},
		{"sess_42", "transfer", `{"to_account":1152921504606846977}`, "acc0dc3fd8e810e48e252fa93dca3818651fc4575881829eef0d0aa4d7b9d3a4"},
		{"sess_42", "transfer", `{"to_account":1152921504606846976}`, "f1efef177e39cef67c2d706e15007b6724d94442e472e9079bde748ad051e49a"},
		{"sess_42", "transfer", `{"to_account":1.152921504606846977e18}`, "acc0dc3fd8e810e48e252fa93dca3818651fc4575881829eef0d0aa4d7b9d3a4"},
	}
	for _, tt := range tests {
		t.Run(tt.args, func(t *testing.T) {
			k, err := idempotency.Key(tt.session, tt.tool, []byte(tt.args))
			require.NoError(t, err)
			assert.Equal(t, tt.want, k)
		})
	}
}

// BenchmarkKey measures deriving the key of a call with a typical 1 KiB
// argument object.
func BenchmarkKey(b *testing.B) {
	args := []byte(benchArgs)
	b.ReportAllocs()
	b.SetBytes(int64(len(args)))
	for b.Loop() {
		if _, err := idempotency.Key("sess_01HZX3Y4", "send_email", args); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkCanonicalize measures canonicalizing the same 1 KiB object.
func BenchmarkCanonicalize(b *testing.B) {
	args := []byte(benchArgs)
	b.ReportAllocs()
	b.SetBytes(int64(len(args)))
	for b.Loop() {
		if _, err := idempotency.Canonicalize(args); err != nil {
			b.Fatal(err)
		}
	}
}

// benchArgs is a typical tool-call argument object of about 1 KiB.
const benchArgs = `{
  "to": ["alice@example.com", "bob@example.org"], "subject": "Quarterly report – Q3",
  "body": "Hello,\n\nPlease find attached the quarterly report. Revenue grew by 12.5% and costs fell by 3.25%.\nRegards,\n\"The Finance Team\"",
  "priority": 2, "send_at": "2025-10-01T09:30:00Z", "dry_run": false, "retries": 3.0,
  "attachments": [
    {"name": "report.pdf", "size": 482133, "sha256": "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08"},
    {"name": "figures.xlsx", "size": 1.5e5, "sha256": "60303ae22b998861bce3b28f33eec1be758a213c86c93c076dbe9f558c11c752"}
  ],
  "labels": {"team": "finance", "quarter": "Q3", "year": 2025, "confidential": true, "region": "EU"},
  "metadata": {"request_id": "req_01HZX3Y4QWERTY", "client": {"name": "agent-runtime", "version": "1.4.2"},
    "trace": {"span": "a1b2c3d4e5f60718", "sampled": true}, "cost_limit_usd": 0.25, "tags": ["q3", "report", "email", null]}
}`
