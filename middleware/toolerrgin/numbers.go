package toolerrgin

import (
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/go-playground/validator/v10"
)

// A number's range: the failing tag's bound, with the field's other
// bounds when its type is known, as allowed_values in JSON Schema's
// words (minimum, maximum, exclusiveMinimum, exclusiveMaximum). A number
// is clamped only above the upper bound of a field tagged
// `toolerr:"cap"`, whose handler caps it anyway.

// bound is one comparison of a number: its value, and whether it is an
// upper bound and an exclusive one.
type bound struct {
	v             float64
	upper, strict bool
	keyword       string
	words         string
}

// boundRule reads a comparison tag; false for another tag or a parameter
// that is not a number.
func boundRule(tag, param string) (bound, bool) {
	v, err := strconv.ParseFloat(param, 64)
	if err != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return bound{}, false
	}
	switch tag {
	case "min", "gte":
		return bound{v: v, keyword: "minimum", words: "at least"}, true
	case "max", "lte":
		return bound{v: v, upper: true, keyword: "maximum", words: "at most"}, true
	case "gt":
		return bound{v: v, strict: true, keyword: "exclusiveMinimum", words: "greater than"}, true
	case "lt":
		return bound{v: v, upper: true, strict: true, keyword: "exclusiveMaximum", words: "less than"}, true
	}
	return bound{}, false
}

// describeNumber words a number out of its range, and clamps it to a
// declared cap.
func describeNumber(f *finding, fe validator.FieldError, sf *reflect.StructField) {
	failing, ok := boundRule(fe.Tag(), fe.Param())
	if !ok {
		describeFormat(f, fe)
		return
	}
	integer := fe.Kind() < reflect.Float32
	bounds := []bound{failing}
	if sf != nil {
		for _, r := range rulesOf(*sf) {
			if b, ok := boundRule(r.tag, r.param); ok && b.keyword != failing.keyword {
				bounds = append(bounds, b)
			}
		}
	}
	allowed := map[string]any{}
	for _, b := range bounds {
		allowed[b.keyword] = numberValue(b.v, integer)
	}
	f.allowed = allowed
	f.reason = fmt.Sprintf("must be %s %s", failing.words, jsonText(numberValue(failing.v, integer)))
	f.fix = fmt.Sprintf("set %s %s %s", displayName(f.field), failing.words, jsonText(numberValue(failing.v, integer)))
	if noRepair(sf) {
		f.askUser = true
		return
	}
	v, ok := floatOf(valueOf(fe))
	if !ok {
		return
	}
	// A number out of range is what the user asked for: the nearest
	// allowed one is another request (fewer tickets, a smaller charge),
	// unless the field says the server caps it (`toolerr:"cap"`) and the
	// number is above its upper bound.
	if !capped(sf) || !failing.upper {
		return
	}
	if c, ok := clamp(v, bounds, integer); ok && c != v {
		f.suggestion, f.has = numberValue(c, integer), true
	}
}

// clamp moves v into the range of bounds: to the nearest value every
// bound allows. An exclusive bound of a float has no nearest value;
// nor has an empty range.
func clamp(v float64, bounds []bound, integer bool) (float64, bool) {
	lo, hi := math.Inf(-1), math.Inf(1)
	for _, b := range bounds {
		x := b.v
		if b.strict {
			if !integer {
				return 0, false
			}
			x = math.Floor(b.v) + 1
			if b.upper {
				x = math.Ceil(b.v) - 1
			}
		} else if integer {
			x = math.Ceil(b.v)
			if b.upper {
				x = math.Floor(b.v)
			}
		}
		if b.upper {
			hi = math.Min(hi, x)
		} else {
			lo = math.Max(lo, x)
		}
	}
	if lo > hi || (integer && (math.Abs(lo) > 1<<53 && !math.IsInf(lo, 0) || math.Abs(hi) > 1<<53 && !math.IsInf(hi, 0))) {
		return 0, false
	}
	return math.Min(math.Max(v, lo), hi), true
}

// numberValue is v as the JSON number of the field: an integer for an
// integer field.
func numberValue(v float64, integer bool) any {
	if integer && v == math.Trunc(v) && math.Abs(v) <= 1<<53 {
		return int64(v)
	}
	return v
}

// floatOf reads a number of any kind.
func floatOf(x any) (float64, bool) {
	v := reflect.ValueOf(x)
	switch {
	case v.CanInt():
		return float64(v.Int()), math.Abs(float64(v.Int())) <= 1<<53
	case v.CanUint():
		return float64(v.Uint()), v.Uint() <= 1<<53
	case v.CanFloat():
		f := v.Float()
		return f, !math.IsNaN(f) && !math.IsInf(f, 0)
	}
	return 0, false
}
