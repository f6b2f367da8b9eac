package sanitize

import (
	"cmp"
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"hash/fnv"
	"math/rand/v2"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"testing"
)

// TestGitleaksRecall measures the secrets stage against the examples that
// the gitleaks rule set publishes with each rule: the recall on its true
// positives and the over-redaction on its false positives, per provider
// family (one rule file, such as github.go, is one family). It reads a
// checked-out gitleaks tree and is skipped unless TOOLERR_GITLEAKS_DIR
// names one; nothing of that tree is copied here. Run it as
//
//	git -C <gitleaks clone> archive HEAD cmd/generate/config/rules | tar -x -C /tmp/gitleaks
//	TOOLERR_GITLEAKS_DIR=/tmp/gitleaks go test ./middleware/sanitize -run GitleaksRecall -v
//
// TOOLERR_GITLEAKS_VERBOSE=1 also lists every miss and every
// over-redaction.
//
// A true positive counts as found when the cleaned text holds a
// placeholder and no longer holds the secret: the value the harness
// planted, or else the longest match of the rule's own pattern, or, when
// neither is known, when it holds a placeholder ("judged by placeholder").
// Examples written by a helper this harness cannot evaluate are counted as
// skipped. The "bare" columns put each planted secret alone in a
// sentence, without a key naming it, when the rule's own pattern still
// finds it there, so they measure the provider formats themselves. A false positive counts as over-redacted
// when the cleaned text holds a placeholder; a false positive of one rule
// that is a true positive of another is left out.
func TestGitleaksRecall(t *testing.T) {
	dir := os.Getenv("TOOLERR_GITLEAKS_DIR")
	if dir == "" {
		t.Skip("TOOLERR_GITLEAKS_DIR is not set")
	}
	rules, err := loadGitleaksRules(filepath.Join(dir, "cmd", "generate", "config", "rules"))
	if err != nil {
		t.Fatal(err)
	}
	verbose := os.Getenv("TOOLERR_GITLEAKS_VERBOSE") != ""
	s := New(WithMaxOutput(1<<20), WithHostname(""))
	isTP := map[string]bool{}
	for _, r := range rules {
		for _, ex := range r.tps {
			isTP[ex.text] = true
		}
	}
	fams := map[string]*glTally{}
	for _, r := range rules {
		f := fams[r.family]
		if f == nil {
			f = &glTally{family: r.family}
			fams[r.family] = f
		}
		f.rules++
		f.skipped += r.skipped
		for _, ex := range r.tps {
			if strings.TrimSpace(ex.text) == "" { // an example of a file's path only
				f.skipped++
				continue
			}
			secret := ex.secret
			if secret == "" && r.oracle != nil {
				secret = r.oracle.find(ex.text)
			}
			out, _ := s.Clean(ex.text)
			hit := strings.Contains(out, placeholderPrefix) && (secret == "" || !strings.Contains(out, secret))
			f.tp++
			if secret == "" {
				f.judged++
			}
			if hit {
				f.tpHit++
			} else if verbose {
				t.Logf("MISS %s %s: %q -> %q", r.family, r.name, ex.text, out)
			}
			bare := "the upstream rejected the key " + ex.secret + " (401)"
			if r.oracle != nil && !r.oracle.semi && ex.secret != "" &&
				strings.Contains(r.oracle.find(bare), ex.secret) && !f.seen(ex.secret) {
				out, _ := s.Clean(bare)
				f.bare++
				if !strings.Contains(out, ex.secret) {
					f.bareHit++
				} else if verbose {
					t.Logf("BARE MISS %s %s: %q", r.family, r.name, bare)
				}
			}
		}
		for _, ex := range r.fps {
			if strings.TrimSpace(ex.text) == "" {
				f.skipped++
				continue
			}
			if isTP[ex.text] {
				f.fpOther++
				continue
			}
			out, _ := s.Clean(ex.text)
			f.fp++
			if strings.Contains(out, placeholderPrefix) && !strings.Contains(ex.text, placeholderPrefix) {
				f.fpHit++
				if verbose {
					t.Logf("OVER %s %s: %q -> %q", r.family, r.name, ex.text, out)
				}
			}
		}
	}
	t.Log("\n" + glTable(fams))
}

// glRule is one rule of the rule set with its examples.
type glRule struct {
	family, name string
	oracle       *glOracle
	tps, fps     []glExample
	skipped      int
}

// glTally counts the results of one family.
type glTally struct {
	family                                  string
	rules, tp, tpHit, judged, bare, bareHit int
	fp, fpHit, fpOther, skipped             int
	bareSeen                                map[string]bool
}

// seen reports whether the bare test already ran secret, and marks it.
func (f *glTally) seen(secret string) bool {
	if f.bareSeen == nil {
		f.bareSeen = map[string]bool{}
	}
	ok := f.bareSeen[secret]
	f.bareSeen[secret] = true
	return ok
}

// pct formats n of d as a percentage, or "–" when d is 0.
func pct(n, d int) string {
	if d == 0 {
		return "–"
	}
	return strconv.FormatFloat(100*float64(n)/float64(d), 'f', 1, 64) + "%"
}

// glTable renders the tallies as a Markdown table with a totals row.
func glTable(fams map[string]*glTally) string {
	var b strings.Builder
	b.WriteString("| family | rules | TP found/evaluated | recall | bare found/n | bare recall | FP redacted/n | over-redaction | skipped |\n")
	b.WriteString("|---|---:|---:|---:|---:|---:|---:|---:|---:|\n")
	var tot glTally
	tot.family = "**total**"
	list := make([]*glTally, 0, len(fams))
	for _, f := range fams {
		list = append(list, f)
	}
	slices.SortFunc(list, func(a, b *glTally) int { return cmp.Compare(a.family, b.family) })
	row := func(f *glTally) {
		fmt.Fprintf(&b, "| %s | %d | %d/%d | %s | %d/%d | %s | %d/%d | %s | %d |\n", f.family, f.rules,
			f.tpHit, f.tp, pct(f.tpHit, f.tp), f.bareHit, f.bare, pct(f.bareHit, f.bare),
			f.fpHit, f.fp, pct(f.fpHit, f.fp), f.skipped)
	}
	for _, f := range list {
		row(f)
		tot.rules += f.rules
		tot.tp += f.tp
		tot.tpHit += f.tpHit
		tot.judged += f.judged
		tot.bare += f.bare
		tot.bareHit += f.bareHit
		tot.fp += f.fp
		tot.fpHit += f.fpHit
		tot.fpOther += f.fpOther
		tot.skipped += f.skipped
	}
	row(&tot)
	fmt.Fprintf(&b, "\n%d TPs judged by placeholder only; %d FPs left out as another rule's TP.\n", tot.judged, tot.fpOther)
	return b.String()
}

// loadGitleaksRules parses the rule files of dir and evaluates the
// examples of every function that returns a rule.
func loadGitleaksRules(dir string) ([]glRule, error) {
	names, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil || len(names) == 0 {
		return nil, fmt.Errorf("no rule files in %s: %v", dir, err)
	}
	fset := token.NewFileSet()
	var files []*ast.File
	for _, n := range names {
		if strings.HasSuffix(n, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(fset, n, nil, 0)
		if err != nil {
			return nil, err
		}
		files = append(files, f)
	}
	globals := map[string]glValue{}
	for pass := 0; pass < 2; pass++ { // a variable may use one declared later
		for _, f := range files {
			ev := &glEval{globals: globals, rnd: rand.New(rand.NewPCG(1, 2))}
			for _, d := range f.Decls {
				if gd, ok := d.(*ast.GenDecl); ok && (gd.Tok == token.VAR || gd.Tok == token.CONST) {
					for _, sp := range gd.Specs {
						vs := sp.(*ast.ValueSpec)
						for k, id := range vs.Names {
							if k < len(vs.Values) {
								if v, ok := ev.eval(vs.Values[k]); ok {
									globals[id.Name] = v
								}
							}
						}
					}
				}
			}
		}
	}
	var rules []glRule
	for k, f := range files {
		family := strings.TrimSuffix(filepath.Base(names[k]), ".go")
		for _, d := range f.Decls {
			fd, ok := d.(*ast.FuncDecl)
			if !ok || fd.Body == nil || !returnsRule(fd) {
				continue
			}
			h := fnv.New64a()
			h.Write([]byte(family + "." + fd.Name.Name))
			ev := &glEval{globals: globals, locals: map[string]glValue{}, rnd: rand.New(rand.NewPCG(h.Sum64(), 7))}
			r := glRule{family: family, name: fd.Name.Name}
			ev.walkRule(fd.Body.List, &r)
			r.skipped += ev.skipped
			rules = append(rules, r)
		}
	}
	return rules, nil
}

// returnsRule reports whether fd returns *config.Rule.
func returnsRule(fd *ast.FuncDecl) bool {
	if fd.Type.Results == nil || len(fd.Type.Results.List) != 1 {
		return false
	}
	st, ok := fd.Type.Results.List[0].Type.(*ast.StarExpr)
	return ok && selector(st.X) == "config.Rule"
}

// walkRule evaluates the statements of a rule function: its rule
// literal, its local variables and the example lists it returns.
func (ev *glEval) walkRule(stmts []ast.Stmt, r *glRule) {
	mentions := func(n ast.Node) bool {
		found := false
		ast.Inspect(n, func(n ast.Node) bool {
			if id, ok := n.(*ast.Ident); ok && (id.Name == "tps" || id.Name == "fps") {
				found = true
			}
			return !found
		})
		return found
	}
	for _, st := range stmts {
		switch x := st.(type) {
		case *ast.AssignStmt:
			for k, lhs := range x.Lhs {
				id, ok := lhs.(*ast.Ident)
				if !ok || k >= len(x.Rhs) {
					continue
				}
				if cl, ok := x.Rhs[k].(*ast.CompositeLit); ok && selector(cl.Type) == "config.Rule" {
					ev.readRuleLiteral(cl, r)
					continue
				}
				if v, ok := ev.eval(x.Rhs[k]); ok {
					ev.locals[id.Name] = v
				} else if id.Name == "tps" || id.Name == "fps" {
					ev.skipped++
				}
			}
		case *ast.DeclStmt:
			if gd, ok := x.Decl.(*ast.GenDecl); ok {
				for _, sp := range gd.Specs {
					if vs, ok := sp.(*ast.ValueSpec); ok {
						for k, id := range vs.Names {
							if k < len(vs.Values) {
								if v, ok := ev.eval(vs.Values[k]); ok {
									ev.locals[id.Name] = v
								}
							}
						}
					}
				}
			}
		case *ast.ReturnStmt:
			if len(x.Results) == 1 {
				if call, ok := x.Results[0].(*ast.CallExpr); ok && len(call.Args) == 3 {
					r.tps = ev.examples(call.Args[1])
					r.fps = ev.examples(call.Args[2])
				}
			}
		default:
			if mentions(st) {
				ev.skipped++
			}
		}
	}
}

// examples evaluates an example list argument; nil is an empty list.
func (ev *glEval) examples(e ast.Expr) []glExample {
	if id, ok := e.(*ast.Ident); ok && id.Name == "nil" {
		return nil
	}
	v, ok := ev.eval(e)
	if !ok || !v.isList {
		ev.skipped++
		return nil
	}
	return v.list
}

// readRuleLiteral takes the name and the secret pattern of a rule literal.
func (ev *glEval) readRuleLiteral(cl *ast.CompositeLit, r *glRule) {
	var regex ast.Expr
	group := 0
	for _, el := range cl.Elts {
		kv, ok := el.(*ast.KeyValueExpr)
		if !ok {
			continue
		}
		key, _ := kv.Key.(*ast.Ident)
		switch {
		case key == nil:
		case key.Name == "RuleID":
			if v, ok := ev.eval(kv.Value); ok {
				r.name = v.str
			}
		case key.Name == "Regex":
			regex = kv.Value
		case key.Name == "SecretGroup":
			if v, ok := ev.eval(kv.Value); ok {
				group, _ = strconv.Atoi(v.str)
			}
		}
	}
	if regex != nil {
		r.oracle = ev.ruleOracle(regex, group)
	}
}
