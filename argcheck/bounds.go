package argcheck

import (
	"encoding/json"
	"math/big"
	"strconv"
	"strings"

	validator "github.com/santhosh-tekuri/jsonschema/v6"
	"github.com/santhosh-tekuri/jsonschema/v6/kind"
)

// bounds are a number's constraints in its schema: nil when absent.
type bounds struct {
	min, max, exMin, exMax, multipleOf *big.Rat
	integer                            bool // the schema's type is integer
	raw                                map[string]any
}

// numericKeywords are the keywords bounds reads, in the order
// allowed_values shows them.
var numericKeywords = [...]string{"minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum", "multipleOf"}

// boundsOf reads the numeric keywords of node.
func boundsOf(node map[string]any) bounds {
	b := bounds{raw: map[string]any{}}
	for _, k := range numericKeywords {
		r, ok := toRat(node[k])
		if !ok {
			continue
		}
		b.raw[k] = node[k]
		switch k {
		case "minimum":
			b.min = r
		case "maximum":
			b.max = r
		case "exclusiveMinimum":
			b.exMin = r
		case "exclusiveMaximum":
			b.exMax = r
		case "multipleOf":
			if r.Sign() > 0 {
				b.multipleOf = r
			}
		}
	}
	switch t := node["type"].(type) {
	case string:
		b.integer = t == "integer"
	case []any:
		for _, x := range t {
			if x == "integer" {
				b.integer = true
			}
			if x == "number" {
				b.integer = false
				break
			}
		}
	}
	return b
}

// allowed is allowed_values of a numeric violation: the keywords set.
func (b bounds) allowed() any {
	if len(b.raw) == 0 {
		return nil
	}
	return b.raw
}

// lower and upper describe the range as words, "" when unbounded.
func (b bounds) lower() (word string, v *big.Rat) {
	switch {
	case b.min != nil && (b.exMin == nil || b.min.Cmp(b.exMin) > 0):
		return "at least", b.min
	case b.exMin != nil:
		return "above", b.exMin
	}
	return "", nil
}

func (b bounds) upper() (word string, v *big.Rat) {
	switch {
	case b.max != nil && (b.exMax == nil || b.max.Cmp(b.exMax) < 0):
		return "at most", b.max
	case b.exMax != nil:
		return "below", b.exMax
	}
	return "", nil
}

// rangeWords is "between 1 and 100", "at least 1", "above 0 and at most
// 100", or "" when the number is unbounded.
func (b bounds) rangeWords() string {
	lw, lv := b.lower()
	uw, uv := b.upper()
	switch {
	case lw == "at least" && uw == "at most":
		return "between " + ratText(lv) + " and " + ratText(uv)
	case lw != "" && uw != "":
		return lw + " " + ratText(lv) + " and " + uw + " " + ratText(uv)
	case lw != "":
		return lw + " " + ratText(lv)
	case uw != "":
		return uw + " " + ratText(uv)
	}
	return ""
}

// reason says what k requires.
func (b bounds) reason(k validator.ErrorKind) string {
	if m, ok := k.(*kind.MultipleOf); ok {
		return "must be a multiple of " + ratText(m.Want)
	}
	return "must be " + b.rangeWords()
}

// fix is the imperative repair of k for the value called name.
func (b bounds) fix(name string, k validator.ErrorKind) string {
	if m, ok := k.(*kind.MultipleOf); ok {
		return "set " + name + " to a multiple of " + ratText(m.Want)
	}
	w := b.rangeWords()
	if strings.HasPrefix(w, "at ") {
		return "set " + name + " to " + w
	}
	return "set " + name + " " + w
}

// clamp returns x moved into the range and onto multipleOf: the nearest
// such number, or false when the bounds leave none that is deterministic
// (an exclusive bound on a non-integer number without multipleOf, or an
// empty range).
func (b bounds) clamp(x *big.Rat) (*big.Rat, bool) {
	lo, hi := b.min, b.max
	step := b.multipleOf
	if b.integer && step == nil {
		step = big.NewRat(1, 1)
	}
	if b.exMin != nil && (lo == nil || b.exMin.Cmp(lo) >= 0) {
		if step == nil {
			if x.Cmp(b.exMin) <= 0 {
				return nil, false
			}
		} else {
			lo = nextMultiple(b.exMin, step, true)
		}
	}
	if b.exMax != nil && (hi == nil || b.exMax.Cmp(hi) <= 0) {
		if step == nil {
			if x.Cmp(b.exMax) >= 0 {
				return nil, false
			}
		} else {
			hi = nextMultiple(b.exMax, step, false)
		}
	}
	y := new(big.Rat).Set(x)
	if lo != nil && y.Cmp(lo) < 0 {
		y.Set(lo)
	}
	if hi != nil && y.Cmp(hi) > 0 {
		y.Set(hi)
	}
	if step != nil {
		var tie bool
		if y, tie = nearestMultiple(y, step); tie && y.Cmp(x) != 0 && !b.clamped(x) {
			return nil, false // midway between two multiples: neither is nearer
		}
		if lo != nil && y.Cmp(lo) < 0 {
			y.Add(y, step)
		}
		if hi != nil && y.Cmp(hi) > 0 {
			y.Sub(y, step)
		}
	}
	if (lo != nil && y.Cmp(lo) < 0) || (hi != nil && y.Cmp(hi) > 0) {
		return nil, false
	}
	return y, true
}

// nextMultiple returns the first multiple of step strictly above x (up)
// or strictly below it.
func nextMultiple(x, step *big.Rat, up bool) *big.Rat {
	q := new(big.Rat).Quo(x, step)
	n := new(big.Int).Quo(q.Num(), q.Denom()) // truncated toward zero
	f := new(big.Rat).SetInt(n)
	if up {
		if f.Cmp(q) <= 0 {
			n.Add(n, big.NewInt(1))
		}
	} else if f.Cmp(q) >= 0 {
		n.Sub(n, big.NewInt(1))
	}
	return new(big.Rat).Mul(new(big.Rat).SetInt(n), step)
}

// nearestMultiple rounds x to the nearest multiple of step, halves away
// from zero; tie reports that x was midway between two multiples.
func nearestMultiple(x, step *big.Rat) (y *big.Rat, tie bool) {
	q := new(big.Rat).Quo(x, step)
	half := big.NewRat(1, 2)
	frac := new(big.Rat).Sub(q, new(big.Rat).SetInt(new(big.Int).Quo(q.Num(), q.Denom())))
	tie = frac.Abs(frac).Cmp(half) == 0
	if q.Sign() < 0 {
		q.Sub(q, half)
	} else {
		q.Add(q, half)
	}
	n := new(big.Int).Quo(q.Num(), q.Denom())
	return new(big.Rat).Mul(new(big.Rat).SetInt(n), step), tie
}

// clamped reports whether x lies outside the inclusive or exclusive
// bounds, so that the range, not rounding, decides the repair.
func (b bounds) clamped(x *big.Rat) bool {
	return (b.min != nil && x.Cmp(b.min) < 0) || (b.max != nil && x.Cmp(b.max) > 0) ||
		(b.exMin != nil && x.Cmp(b.exMin) <= 0) || (b.exMax != nil && x.Cmp(b.exMax) >= 0)
}

// toRat reads a decoded JSON number.
func toRat(v any) (*big.Rat, bool) {
	switch n := v.(type) {
	case json.Number:
		return new(big.Rat).SetString(string(n))
	case float64:
		r := new(big.Rat)
		if r.SetFloat64(n) == nil {
			return nil, false
		}
		return r, true
	case int:
		return big.NewRat(int64(n), 1), true
	case int64:
		return big.NewRat(n, 1), true
	}
	return nil, false
}

// ratText writes r as a JSON number: an integer when it is one, else the
// shortest decimal that reads back as the same float64.
func ratText(r *big.Rat) string {
	if r.IsInt() {
		return r.Num().String()
	}
	f, _ := r.Float64()
	return strconv.FormatFloat(f, 'g', -1, 64)
}

// ratNumber is r as a JSON number value.
func ratNumber(r *big.Rat) json.Number {
	return json.Number(ratText(r))
}

// capWords are what a description says when the server lowers a number
// above the maximum to the maximum itself ("Values above 3600 are capped
// to 3600", "treated as 72"). The first two say it alone; the others
// only in a description that also names the maximum.
var capWords = []string{"capped", "clamped", "treated as", "reduced to", "lowered to", "limited to", "truncated to"}

// declaresCap reports whether node's description says that the server
// caps a number above the maximum: then sending the maximum is what the
// call would do anyway, and the clamp is a repair. Anywhere else a clamp
// changes what the user asked for.
func declaresCap(node map[string]any) bool {
	d, _ := node["description"].(string)
	d = strings.ToLower(d)
	_, hi := boundsOf(node).upper()
	for i, w := range capWords {
		if strings.Contains(d, w) && (i < 2 || hi != nil && strings.Contains(d, ratText(hi))) {
			return true
		}
	}
	return false
}
