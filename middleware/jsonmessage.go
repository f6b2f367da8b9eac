package middleware

import (
	"bytes"
	"encoding/json"
	"errors"
)

// messageKeys are the members vendors commonly put a human message in,
// most telling first. "error" may also be an object with a message.
var messageKeys = [...]string{"message", "error_description", "detail", "title", "error", "errorMessage", "Message"}

// messageRank returns the rank of key in messageKeys, or len(messageKeys).
func messageRank(key string) int {
	for i, k := range messageKeys {
		if k == key {
			return i
		}
	}
	return len(messageKeys)
}

// jsonMessage returns the best message member of a JSON object body (see
// messageKeys; an "error" object's "message" counts as "error"). It reads
// the body once, token by token, skipping the values it does not need, so
// a 64 KiB body holding a stack trace costs one scan, not one per decode.
func jsonMessage(body []byte) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(body))
	if t, err := dec.Token(); err != nil || t != json.Delim('{') {
		return "", false
	}
	var skip json.RawMessage // reused: skipped values are copied into it
	best, bestRank := "", len(messageKeys)
	for dec.More() {
		t, err := dec.Token()
		if err != nil {
			break
		}
		key, _ := t.(string)
		rank := messageRank(key)
		var msg string
		switch {
		case rank >= bestRank:
			err = dec.Decode(&skip)
		case key == "error":
			msg, err = errorMember(dec, &skip)
		default:
			msg, err = stringValue(dec)
		}
		if err != nil {
			break
		}
		if msg != "" {
			best, bestRank = msg, rank
		}
	}
	return best, best != ""
}

// stringValue reads the next value of dec: its text when it is a string,
// "" when it is anything else.
func stringValue(dec *json.Decoder) (string, error) {
	var s string
	var typeErr *json.UnmarshalTypeError
	if err := dec.Decode(&s); err != nil && !errors.As(err, &typeErr) {
		return "", err
	}
	return s, nil
}

// errorMember reads the value of an "error" member: a string, or an object
// whose "message" member is a string.
func errorMember(dec *json.Decoder, skip *json.RawMessage) (string, error) {
	t, err := dec.Token()
	if err != nil {
		return "", err
	}
	switch v := t.(type) {
	case string:
		return v, nil
	case json.Delim:
		if v == '[' {
			return "", skipRest(dec, v, skip)
		}
	default:
		return "", nil // a number, a bool, null
	}
	msg := ""
	for dec.More() {
		kt, err := dec.Token()
		if err != nil {
			return "", err
		}
		if k, _ := kt.(string); k == "message" && msg == "" {
			if msg, err = stringValue(dec); err != nil {
				return "", err
			}
			continue
		}
		if err := dec.Decode(skip); err != nil {
			return "", err
		}
	}
	_, err = dec.Token() // the closing brace
	return msg, err
}

// skipRest skips the rest of the object or array that open began.
func skipRest(dec *json.Decoder, open json.Delim, skip *json.RawMessage) error {
	for dec.More() {
		if open == '{' {
			if _, err := dec.Token(); err != nil { // the key
				return err
			}
		}
		if err := dec.Decode(skip); err != nil {
			return err
		}
	}
	_, err := dec.Token()
	return err
}
