package middleware

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestJSONMessage(t *testing.T) {
	big := strings.Repeat("x", 70_000)
	tests := []struct {
		name, body, want string
		ok               bool
	}{
		{"message", `{"message":"Invalid amount"}`, "Invalid amount", true},
		{"nested error object", `{"error":{"type":"card_error","message":"Your card was declined."}}`, "Your card was declined.", true},
		{"error string", `{"error":"invalid_grant","error_description":"The code expired."}`, "The code expired.", true},
		{"message wins whatever the order", `{"title":"Bad Request","detail":"d","message":"m"}`, "m", true},
		{"detail over title", `{"title":"Bad Request","detail":"amount must be positive"}`, "amount must be positive", true},
		{"non-string message is skipped", `{"message":{"text":"no"},"detail":"yes"}`, "yes", true},
		{"error object without message", `{"error":{"code":42},"title":"t"}`, "t", true},
		{"error array", `{"error":[{"message":"a"}],"detail":"d"}`, "d", true},
		{"error object with a non-string message", `{"error":{"message":7}}`, "", false},
		{"empty message", `{"message":""}`, "", false},
		{"no known member", `{"code":"E1","status":400}`, "", false},
		{"large skipped member", `{"trace":"` + big + `","message":"after the trace"}`, "after the trace", true},
		{"nested arrays and objects skipped", `{"a":[1,[2,{"b":3}],"c"],"d":{"e":[]},"message":"m"}`, "m", true},
		{"not an object", `["message"]`, "", false},
		{"broken JSON keeps what it found", `{"message":"m","detail":`, "m", true},
		{"not JSON", `<html>`, "", false},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := jsonMessage([]byte(tc.body))
			assert.Equal(t, tc.want, got)
			assert.Equal(t, tc.ok, ok)
		})
	}
}

func FuzzJSONMessage(f *testing.F) {
	f.Add(`{"error":{"message":"declined"}}`)
	f.Add(`{"message":"m","error":[1,{"a":"b"}]}`)
	f.Add(`{"a":`)
	f.Fuzz(func(t *testing.T, body string) {
		msg, ok := jsonMessage([]byte(body))
		if ok != (msg != "") {
			t.Fatalf("ok %v with message %q", ok, msg)
		}
	})
}
