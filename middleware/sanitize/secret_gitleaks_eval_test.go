package sanitize

import (
	"fmt"
	"go/ast"
	"go/token"
	"math/rand/v2"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
)

// An evaluator of the example lists of a secret scanner's rule files, for
// the recall measurement of gitleaks_recall_test.go. It reads the Go source
// of the rules with go/ast and evaluates the few expression forms their
// examples are written in: string literals and concatenations, string
// slices, append, fmt.Sprintf with evaluable arguments, and the scanner's
// helpers that make a random secret from a pattern or plant a secret in
// sample lines. Anything else is counted as skipped, never guessed.

// glExample is one example string of a rule.
type glExample struct {
	text   string
	secret string // the planted secret when the harness made the line, else ""
}

// glValue is the value of an evaluated expression: a string (with the
// secret it holds when known) or a list of examples.
type glValue struct {
	str    string
	secret string
	list   []glExample
	isList bool
}

// glEval evaluates the expressions of one rule function.
type glEval struct {
	globals map[string]glValue // package-level variables of the rule files
	locals  map[string]glValue
	rnd     *rand.Rand
	skipped int // list elements or statements that could not be evaluated
}

// glContexts are the lines a planted secret is written into: assignments
// and settings in the syntaxes where leaked keys are found. {i} is the
// provider's name, {I} the same in upper case, {s} the secret. They are
// this harness's own choice.
var glContexts = []string{
	`{i}_api_token = "{s}"`,
	`{I}_TOKEN={s}`,
	`{"{i}_token": "{s}"}`,
	`{i}_token: {s}`,
	`{i}Token := "{s}"`,
	"{i}Token := `{s}`",
	`var {i}Token string = "{s}"`,
	`private String {i}Token = "{s}";`,
	`System.setProperty("{I}_TOKEN", "{s}")`,
	"<{i}Token>\n    {s}\n</{i}Token>",
	`${i}Token .= "{s}"`,
	`"{i}Token" => "{s}"`,
	`{I}_TOKEN ?= "{s}"`,
}

// plantLines writes secret into every context with the provider name id.
func plantLines(id, secret string) []glExample {
	r := strings.NewReplacer("{i}", id, "{I}", strings.ToUpper(id), "{s}", secret)
	out := make([]glExample, 0, len(glContexts))
	for _, c := range glContexts {
		out = append(out, glExample{text: r.Replace(c), secret: secret})
	}
	return out
}

// helperPatterns are the character-class helpers of the rule files: each
// takes a length and returns a class with that repetition.
var helperPatterns = map[string]string{
	"Numeric":                   `[0-9]`,
	"Hex":                       `[a-f0-9]`,
	"AlphaNumeric":              `[a-z0-9]`,
	"AlphaNumericExtendedShort": `[a-z0-9_-]`,
	"AlphaNumericExtended":      `[a-z0-9=_\-]`,
	"AlphaNumericExtendedLong":  `[a-z0-9\/=_\+\-]`,
}

// selector returns "pkg.Name" of a call's function, or its bare name.
func selector(fn ast.Expr) string {
	switch f := fn.(type) {
	case *ast.SelectorExpr:
		if x, ok := f.X.(*ast.Ident); ok {
			return x.Name + "." + f.Sel.Name
		}
	case *ast.Ident:
		return f.Name
	}
	return ""
}

// eval evaluates e, reporting false when it cannot.
func (ev *glEval) eval(e ast.Expr) (glValue, bool) {
	switch x := e.(type) {
	case *ast.BasicLit:
		if x.Kind != token.STRING {
			return glValue{str: x.Value}, x.Kind == token.INT
		}
		s, err := strconv.Unquote(x.Value)
		return glValue{str: s}, err == nil
	case *ast.ParenExpr:
		return ev.eval(x.X)
	case *ast.Ident:
		if v, ok := ev.locals[x.Name]; ok {
			return v, true
		}
		if v, ok := ev.globals[x.Name]; ok {
			return v, true
		}
		return glValue{}, false
	case *ast.BinaryExpr:
		if x.Op != token.ADD {
			return glValue{}, false
		}
		a, okA := ev.eval(x.X)
		b, okB := ev.eval(x.Y)
		if !okA || !okB || a.isList || b.isList {
			return glValue{}, false
		}
		return glValue{str: a.str + b.str, secret: longer(a.secret, b.secret)}, true
	case *ast.CompositeLit:
		return ev.evalComposite(x)
	case *ast.CallExpr:
		return ev.evalCall(x)
	}
	return glValue{}, false
}

// longer returns the longer of two known secrets.
func longer(a, b string) string {
	if len(b) > len(a) {
		return b
	}
	return a
}

// evalComposite evaluates a string slice, or the values of a map of path
// to content; elements it cannot evaluate are counted as skipped.
func (ev *glEval) evalComposite(x *ast.CompositeLit) (glValue, bool) {
	v := glValue{isList: true}
	for _, el := range x.Elts {
		if kv, ok := el.(*ast.KeyValueExpr); ok {
			el = kv.Value
		}
		ev.appendTo(&v, el, false)
	}
	return v, true
}

// appendTo adds the value of el to the list v (all its elements when
// spread), or counts it as skipped.
func (ev *glEval) appendTo(v *glValue, el ast.Expr, spread bool) {
	e, ok := ev.eval(el)
	switch {
	case !ok:
		ev.skipped++
	case e.isList && spread:
		v.list = append(v.list, e.list...)
	case e.isList:
		ev.skipped++
	default:
		v.list = append(v.list, glExample{text: e.str, secret: e.secret})
	}
}

// evalCall evaluates the calls the example lists are built with.
func (ev *glEval) evalCall(x *ast.CallExpr) (glValue, bool) {
	name := selector(x.Fun)
	args := make([]glValue, 0, len(x.Args))
	argsOK := func(from int) bool {
		args = args[:0]
		for _, a := range x.Args[from:] {
			v, ok := ev.eval(a)
			if !ok {
				return false
			}
			args = append(args, v)
		}
		return true
	}
	switch {
	case name == "append":
		if len(x.Args) == 0 {
			return glValue{}, false
		}
		base, ok := ev.eval(x.Args[0])
		if !ok || !base.isList {
			return glValue{}, false
		}
		v := glValue{isList: true, list: append([]glExample(nil), base.list...)}
		for k, a := range x.Args[1:] {
			ev.appendTo(&v, a, x.Ellipsis.IsValid() && k == len(x.Args)-2)
		}
		return v, true
	case name == "secrets.NewSecret" && argsOK(0) && len(args) == 1:
		s, ok := randomFromPattern(args[0].str, ev.rnd)
		return glValue{str: s, secret: s}, ok
	case strings.HasPrefix(name, "utils.") && helperPatterns[name[6:]] != "" && argsOK(0) && len(args) == 1:
		return glValue{str: helperPatterns[name[6:]] + "{" + args[0].str + "}"}, true
	case name == "utils.Hex8_4_4_4_12":
		h := `[0-9a-f]`
		return glValue{str: h + "{8}-" + h + "{4}-" + h + "{4}-" + h + "{4}-" + h + "{12}"}, true
	case name == "utils.GenerateSampleSecrets" && argsOK(0) && len(args) == 2:
		return glValue{isList: true, list: plantLines(args[0].str, args[1].str)}, true
	case name == "utils.GenerateSampleSecret" && argsOK(0) && len(args) == 2:
		return glValue{str: args[0].str + `_api_token = "` + args[1].str + `"`, secret: args[1].str}, true
	case name == "fmt.Sprintf" && argsOK(0) && len(args) >= 1:
		rest := make([]any, len(args)-1)
		for k, a := range args[1:] {
			rest[k] = a.str
		}
		return glValue{str: fmt.Sprintf(args[0].str, rest...)}, true
	case name == "strings.Repeat" && argsOK(0) && len(args) == 2:
		n, err := strconv.Atoi(args[1].str)
		return glValue{str: strings.Repeat(args[0].str, max(n, 0))}, err == nil
	}
	return glValue{}, false
}

// randomFromPattern returns a random string that the regular expression
// pattern matches, drawn from printable ASCII where the pattern allows.
func randomFromPattern(pattern string, rnd *rand.Rand) (string, bool) {
	re, err := syntax.Parse(pattern, syntax.Perl)
	if err != nil {
		return "", false
	}
	var b strings.Builder
	writeRandom(&b, re, rnd)
	return b.String(), true
}

// writeRandom appends a random match of re to b.
func writeRandom(b *strings.Builder, re *syntax.Regexp, rnd *rand.Rand) {
	reps := func(lo, hi int) int {
		if hi < 0 {
			hi = lo + 8
		}
		return lo + rnd.IntN(hi-lo+1)
	}
	switch re.Op {
	case syntax.OpLiteral:
		b.WriteString(string(re.Rune))
	case syntax.OpCharClass:
		b.WriteRune(randomInClass(re.Rune, rnd))
	case syntax.OpAnyChar, syntax.OpAnyCharNotNL:
		b.WriteByte(alnumChars[rnd.IntN(len(alnumChars))])
	case syntax.OpCapture:
		writeRandom(b, re.Sub[0], rnd)
	case syntax.OpConcat:
		for _, s := range re.Sub {
			writeRandom(b, s, rnd)
		}
	case syntax.OpAlternate:
		writeRandom(b, re.Sub[rnd.IntN(len(re.Sub))], rnd)
	case syntax.OpStar, syntax.OpPlus, syntax.OpQuest, syntax.OpRepeat:
		lo, hi := re.Min, re.Max
		switch re.Op {
		case syntax.OpStar:
			lo, hi = 0, -1
		case syntax.OpPlus:
			lo, hi = 1, -1
		case syntax.OpQuest:
			lo, hi = 0, 1
		}
		for n := reps(lo, hi); n > 0; n-- {
			writeRandom(b, re.Sub[0], rnd)
		}
	}
}

// randomInClass returns a random rune of the class ranges, preferring the
// printable ASCII ones.
func randomInClass(ranges []rune, rnd *rand.Rand) rune {
	var pool []rune
	for k := 0; k+1 < len(ranges); k += 2 {
		for r := max(ranges[k], '!'); r <= min(ranges[k+1], '~'); r++ {
			pool = append(pool, r)
		}
	}
	if len(pool) == 0 {
		if len(ranges) == 0 {
			return 'x'
		}
		return ranges[0]
	}
	return pool[rnd.IntN(len(pool))]
}

// glOracle finds the secret in an example line the harness did not make:
// the rule's own pattern, or the token pattern it is built around.
type glOracle struct {
	re    *regexp.Regexp
	group int  // the capture group of the secret; -1: the first non-empty one
	semi  bool // the pattern of the value only, which needs a key naming the provider
}

// ruleOracle evaluates the Regex field of a rule.
func (ev *glEval) ruleOracle(e ast.Expr, secretGroup int) *glOracle {
	call, ok := e.(*ast.CallExpr)
	if !ok || len(call.Args) == 0 {
		return nil
	}
	compile := func(pat ast.Expr, ci ast.Expr) *regexp.Regexp {
		v, ok := ev.eval(pat)
		if !ok || v.isList {
			return nil
		}
		p := v.str
		if id, isID := ci.(*ast.Ident); isID && id.Name == "true" {
			p = "(?i)" + p
		}
		re, err := regexp.Compile(p)
		if err != nil {
			return nil
		}
		return re
	}
	switch selector(call.Fun) {
	case "regexp.MustCompile":
		if re := compile(call.Args[0], nil); re != nil {
			g := -1
			if secretGroup > 0 {
				g = secretGroup
			}
			return &glOracle{re: re, group: g}
		}
	case "utils.GenerateUniqueTokenRegex":
		if len(call.Args) == 2 {
			if re := compile(call.Args[0], call.Args[1]); re != nil {
				return &glOracle{re: re}
			}
		}
	case "utils.GenerateSemiGenericRegex":
		if len(call.Args) == 3 {
			if re := compile(call.Args[1], call.Args[2]); re != nil {
				return &glOracle{re: re, semi: true}
			}
		}
	}
	return nil
}

// find returns the longest secret the oracle finds in text, or "".
func (o *glOracle) find(text string) string {
	best := ""
	for _, m := range o.re.FindAllStringSubmatchIndex(text, -1) {
		s := ""
		switch {
		case o.group > 0 && 2*o.group+1 < len(m) && m[2*o.group] >= 0:
			s = text[m[2*o.group]:m[2*o.group+1]]
		case o.group < 0:
			for g := 1; 2*g+1 < len(m); g++ {
				if m[2*g] >= 0 && m[2*g+1] > m[2*g] {
					s = text[m[2*g]:m[2*g+1]]
					break
				}
			}
			if s == "" {
				s = text[m[0]:m[1]]
			}
		default:
			s = text[m[0]:m[1]]
		}
		if len(s) > len(best) {
			best = s
		}
	}
	return best
}
