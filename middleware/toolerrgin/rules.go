package toolerrgin

import (
	"fmt"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"

	"github.com/go-playground/validator/v10"
)

// The validator's tags in plain words, with their allowed values and the
// only repairs made (DESIGN, "Argument validation"): a string that
// matches exactly one oneof member but for case, surrounding space or a
// separator swapped; a number above the maximum of a field tagged
// `toolerr:"cap"` (the handler caps it anyway) clamped to it; a string
// put in the case lowercase or uppercase asks for. Nothing else is
// repaired: a string too short or too long, a missing value, a number
// past an exclusive bound of a float, an item count, a format are the
// user's to give. A struct field tagged `toolerr:"norepair"` (an amount
// over a balance, where the nearest valid value is not what the user
// meant) gets no repair at all.

// rule is one tag of a struct field's binding tag: "max=100".
type rule struct{ tag, param string }

// rulesOf parses the binding tag of sf, up to its first dive, leaving out
// alternatives ("a|b"): the rules the field's own value must meet.
func rulesOf(sf reflect.StructField) []rule {
	var out []rule
	for _, t := range strings.Split(sf.Tag.Get("binding"), ",") {
		if t == "dive" || t == "keys" {
			break
		}
		if t == "" || strings.Contains(t, "|") {
			continue
		}
		tag, param, _ := strings.Cut(t, "=")
		out = append(out, rule{tag, strings.ReplaceAll(param, "0x2C", ",")})
	}
	return out
}

// noRepair reports whether sf turns repairs off.
func noRepair(sf *reflect.StructField) bool {
	return sf != nil && sf.Tag.Get("toolerr") == "norepair"
}

// capped reports whether sf says its handler caps a number above its
// upper bound (`toolerr:"cap"`), so that sending the bound is what the
// call gets anyway.
func capped(sf *reflect.StructField) bool {
	return sf != nil && sf.Tag.Get("toolerr") == "cap"
}

// isBound reports whether tag is one of the comparison tags.
func isBound(tag string) bool {
	switch tag {
	case "min", "max", "gte", "lte", "gt", "lt":
		return true
	}
	return false
}

// numberKind reports whether k is a number's kind: ints, uints, floats.
func numberKind(k reflect.Kind) bool {
	return k >= reflect.Int && k <= reflect.Float64
}

// durationType is time.Duration, whose bounds are durations, not numbers.
var durationType = reflect.TypeFor[time.Duration]()

// describeBound words a failed comparison: a number's range, a string's
// length, a collection's size.
func describeBound(f *finding, fe validator.FieldError, sf *reflect.StructField) {
	name, tag, param := displayName(f.field), fe.Tag(), fe.Param()
	k := fe.Kind()
	if numberKind(k) && fe.Type() != durationType {
		describeNumber(f, fe, sf)
		return
	}
	words, key := countWords(tag)
	n, err := strconv.Atoi(param)
	switch {
	case err != nil || (k != reflect.String && k != reflect.Slice && k != reflect.Array && k != reflect.Map):
		describeFormat(f, fe)
	case k == reflect.String:
		f.reason = fmt.Sprintf("must be %s %d characters long", words, n)
		f.allowed = map[string]any{key + "Length": boundOf(tag, n)}
		f.askUser = true
	default:
		f.reason = fmt.Sprintf("must have %s %d items", words, n)
		f.allowed = map[string]any{key + "Items": boundOf(tag, n)}
		f.fix = fmt.Sprintf("send %s %d items in %s", words, n, name)
	}
}

// countWords words a comparison tag for a count (a length, a number of
// items), and names the JSON Schema keyword's prefix: "min" or "max".
func countWords(tag string) (words, key string) {
	switch tag {
	case "min", "gte":
		return "at least", "min"
	case "max", "lte":
		return "at most", "max"
	case "gt":
		return "more than", "min"
	}
	return "fewer than", "max"
}

// boundOf is the inclusive count of an exclusive tag: gt=2 is minItems 3.
func boundOf(tag string, n int) int {
	switch tag {
	case "gt":
		return n + 1
	case "lt":
		return n - 1
	}
	return n
}

// describeLen words a failed len: a string's exact length, a
// collection's exact size, a number's exact value.
func describeLen(f *finding, fe validator.FieldError) {
	n, err := strconv.Atoi(fe.Param())
	switch k := fe.Kind(); {
	case err != nil:
		describeFormat(f, fe)
	case k == reflect.String:
		f.reason = fmt.Sprintf("must be exactly %d characters long", n)
		f.allowed = map[string]any{"minLength": n, "maxLength": n}
		f.askUser = true
	case k == reflect.Slice || k == reflect.Array || k == reflect.Map:
		f.reason = fmt.Sprintf("must have exactly %d items", n)
		f.allowed = map[string]any{"minItems": n, "maxItems": n}
	default:
		f.reason = fmt.Sprintf("must be %d", n)
		f.allowed = map[string]any{"minimum": n, "maximum": n}
	}
}

// describeFormat words the other tags: formats and cases, and any tag it
// does not know by its name.
func describeFormat(f *finding, fe validator.FieldError) {
	tag, param := fe.Tag(), fe.Param()
	s, isString := valueOf(fe).(string)
	switch {
	case tag == "email":
		f.reason, f.allowed = "must be an email address", map[string]any{"format": "email"}
	case tag == "url" || tag == "uri" || tag == "http_url" || tag == "https_url":
		f.reason, f.allowed = "must be an absolute URL", map[string]any{"format": "uri"}
	case strings.HasPrefix(tag, "uuid"):
		f.reason, f.allowed = "must be a UUID", map[string]any{"format": "uuid"}
	case tag == "datetime" && param == time.DateOnly:
		f.reason, f.allowed = "must be a date, YYYY-MM-DD", map[string]any{"format": "date"}
	case tag == "datetime" && param == time.RFC3339:
		f.reason, f.allowed = "must be a date-time with a time zone, such as 2026-03-14T09:30:00Z",
			map[string]any{"format": "date-time"}
	case tag == "e164":
		f.reason = "must be a phone number in E.164 form, such as +14155550123"
	case tag == "lowercase":
		f.reason = "must be in lower case"
		if isString && strings.ToLower(s) != s {
			f.suggestion, f.has = strings.ToLower(s), true
		}
	case tag == "uppercase":
		f.reason = "must be in upper case"
		if isString && strings.ToUpper(s) != s {
			f.suggestion, f.has = strings.ToUpper(s), true
		}
	case tag == "alpha":
		f.reason = "must contain letters only"
	case tag == "alphanum":
		f.reason = "must contain letters and digits only"
	case tag == "numeric" || tag == "number":
		f.reason = "must be a number"
	default:
		f.reason = fmt.Sprintf("does not satisfy the %s rule", tag)
		if param != "" {
			f.reason = fmt.Sprintf("does not satisfy the rule %s=%s", tag, param)
		}
	}
}

// oneofMembers parses oneof's parameter as the validator does (members
// separated by spaces, or quoted with single quotes), as numbers for a
// number's kind.
func oneofMembers(param string, k reflect.Kind) []any {
	var out []any
	for _, m := range splitOneof(param) {
		out = append(out, typedMember(m, k))
	}
	return out
}

// splitOneof splits oneof's parameter: "a b" and "'a b' c".
func splitOneof(param string) []string {
	var out []string
	for param = strings.TrimSpace(param); param != ""; param = strings.TrimSpace(param) {
		if param[0] == '\'' {
			if end := strings.IndexByte(param[1:], '\''); end >= 0 {
				out = append(out, param[1:end+1])
				param = param[end+2:]
				continue
			}
		}
		end := strings.IndexAny(param, " \t")
		if end < 0 {
			end = len(param)
		}
		out = append(out, param[:end])
		param = param[end:]
	}
	return out
}

// typedMember is a oneof member as the JSON value the field takes.
func typedMember(m string, k reflect.Kind) any {
	switch {
	case k >= reflect.Int && k <= reflect.Int64:
		if n, err := strconv.ParseInt(m, 10, 64); err == nil {
			return n
		}
	case k >= reflect.Uint && k <= reflect.Uint64:
		if n, err := strconv.ParseUint(m, 10, 64); err == nil {
			return n
		}
	case k == reflect.Float32 || k == reflect.Float64:
		if n, err := strconv.ParseFloat(m, 64); err == nil && !math.IsInf(n, 0) && !math.IsNaN(n) {
			return n
		}
	}
	return m
}

// nearestMember returns the one member s differs from only by case,
// surrounding space, or '-', '_' and ' ' swapped for one another; false
// when no member or more than one is that near, or s is a member.
func nearestMember(s string, members []string) (any, bool) {
	key := memberKey(s)
	found := ""
	n := 0
	for _, m := range members {
		if m == s {
			return nil, false
		}
		if memberKey(m) == key {
			found = m
			n++
		}
	}
	if n != 1 {
		return nil, false
	}
	return found, true
}

// memberKey folds what nearestMember ignores.
func memberKey(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	return strings.NewReplacer("-", "_", " ", "_").Replace(s)
}

// valueOf is the failing value, through any pointers (a *string field's
// string); nil for a nil pointer.
func valueOf(fe validator.FieldError) any {
	v := reflect.ValueOf(fe.Value())
	for v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface {
		if v.IsNil() {
			return nil
		}
		v = v.Elem()
	}
	if !v.IsValid() || !v.CanInterface() {
		return nil
	}
	return v.Interface()
}
